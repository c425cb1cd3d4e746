#!/usr/bin/env python3
"""A raw GDB remote-protocol client for what gdb's batch mode cannot do: Ctrl-C (0x03) while
the guest runs, hostile packets on a live stub.  usage: rsp_client.py PORT SPIN_ADDR
Prints PASS/FAIL lines; exits non-zero on a failure."""
import socket
import sys
import time

port, spin_addr = int(sys.argv[1]), int(sys.argv[2], 16)
s = socket.create_connection(("127.0.0.1", port), timeout=10)
buf = b""
failed = False


def check(name, ok, detail=""):
    global failed
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else " " + detail))
    failed |= not ok


def frame(data):
    return b"$" + data + b"#%02x" % (sum(data) & 0xff)


def reply():
    """The next packet's data (acks skipped); acks it."""
    global buf
    while True:
        i = buf.find(b"$")
        j = buf.find(b"#", i + 1) if i >= 0 else -1
        if i >= 0 and j >= 0 and len(buf) >= j + 3:
            data, buf = buf[i + 1:j], buf[j + 3:]
            s.sendall(b"+")
            return data
        chunk = s.recv(65536)
        if not chunk:
            raise EOFError
        buf += chunk


def cmd(data):
    s.sendall(frame(data))
    return reply()


check("rsp-qsupported", b"PacketSize=4000" in cmd(b"qSupported:multiprocess+;swbreak+"))
check("rsp-must-reply-empty", cmd(b"vMustReplyEmpty") == b"")
check("rsp-attached", cmd(b"qAttached") == b"1")
check("rsp-stop-reason", cmd(b"?").startswith(b"T05thread:1;"))
# hostile input: a bad checksum is NAKed, garbage is answered with an error, never a crash
s.sendall(b"$m80000000,4#00")
time.sleep(0.2)
got = s.recv(16)
check("rsp-bad-checksum-nak", got.startswith(b"-"), repr(got))
check("rsp-malformed-m", cmd(b"mzz,4") == b"E01")
check("rsp-malformed-M", cmd(b"M80000000,4:zz") == b"E01")
check("rsp-malformed-Z", cmd(b"Z0,") == b"E01")
check("rsp-bad-thread", cmd(b"Hg99") == b"E01")
check("rsp-unmapped-read", cmd(b"m0,4") == b"E14")
check("rsp-unknown-packet", cmd(b"qNoSuchThing") == b"")
s.sendall(frame(b"q" + b"A" * 20000))  # longer than PacketSize: NAKed, not answered
time.sleep(0.2)
got = s.recv(16)
check("rsp-long-packet-nak", got.startswith(b"-"), repr(got))
# Ctrl-C: keep hart 0 spinning, continue, interrupt
check("rsp-write-spin", cmd(b"M%x,4:01000000" % spin_addr) == b"OK")
s.sendall(frame(b"vCont;c"))
time.sleep(0.3)
s.sendall(b"\x03")
stop = reply()
check("rsp-ctrl-c-stops", stop.startswith(b"T02thread:1;"), repr(stop))
check("rsp-still-alive", cmd(b"qC") == b"QC1")
check("rsp-clear-spin", cmd(b"M%x,4:00000000" % spin_addr) == b"OK")
s.sendall(frame(b"c"))
end = reply()
check("rsp-exit-reply", end == b"W00", repr(end))
sys.exit(1 if failed else 0)
