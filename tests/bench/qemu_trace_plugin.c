/* A QEMU 7.2 TCG plugin that writes one record per instruction fetch and per data access, the
 * reference that `make bench` (step bench-qemu-plugin, tests/bench/bench_qemu_plugin.sh) sets beside
 * `mtemu --trace-all`: the same every-access work, done by QEMU's plugin interface.
 *
 *   qemu-system-riscv64 ... -plugin build/qemu-plugin/qemu_trace_plugin.so,out=OUT.bin
 *
 * Record: 8 bytes, little-endian, bits 0..55 the guest VIRTUAL address (what the 7.2 API gives for
 * fetches; data accesses use the same for symmetry; bare-metal M-mode code runs without address
 * translation, so there it is also the physical address), bits 56..63 the kind: 0 fetch, 1 load, 2 store (an AMO
 * is reported by QEMU as one access and recorded as a store). No header: the file is exactly
 * 8 x records bytes.
 *
 * Fetches are counted per executed instruction: QEMU calls the exec callback of every instruction
 * of a translation block as it is reached, so an instruction that traps still counts (it was
 * fetched); a compressed instruction is one fetch. Data accesses come from QEMU's memory callback,
 * which runs after the access: an access that ends the emulator (the sifive,test0 finisher's store,
 * which calls exit() inside the access) has no record.
 *
 * At exit the plugin prints one line on stderr (not through qemu_plugin_outs, which QEMU shows only
 * with -d plugin):
 *   qemu_trace_plugin: fetches N loads N stores N records N bytes N
 * which tests/bench/qemu-plugin-count.sh checks against the file and an independent count.
 *
 * Buffering: one 64 KiB buffer per vCPU (TCG may run vCPUs on threads of their own), written with
 * write(2) under a lock when full and at exit, so the cost per record is a store and two
 * increments besides QEMU's helper call, and the file is not interleaved below the buffer size. */
#define _POSIX_C_SOURCE 200809L   /* O_CLOEXEC with -std=c17 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum record_kind { KIND_FETCH = 0, KIND_LOAD = 1, KIND_STORE = 2, KIND_COUNT };

#define ADDR_MASK  ((UINT64_C(1) << 56) - 1)
#define BUF_RECORDS 8192   /* 64 KiB of records per vCPU */

struct vcpu_buf {
  uint64_t rec[BUF_RECORDS];
  size_t n;
  uint64_t count[KIND_COUNT];
};

static int out_fd = -1;
static const char *out_path;
static struct vcpu_buf *bufs;
static int n_bufs;
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;
static int write_errno;   /* first write error, reported at exit */
static uint64_t bytes_written;

static void flush_buf(struct vcpu_buf *b) {
  const char *p = (const char *)b->rec;
  size_t left = b->n * sizeof b->rec[0];
  pthread_mutex_lock(&write_lock);
  while (left > 0 && write_errno == 0) {
    ssize_t w = write(out_fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      write_errno = errno;
      break;
    }
    p += w;
    left -= (size_t)w;
    bytes_written += (uint64_t)w;
  }
  pthread_mutex_unlock(&write_lock);
  b->n = 0;
}

static inline void put(unsigned int vcpu, uint64_t addr, enum record_kind kind) {
  struct vcpu_buf *b = &bufs[vcpu];
  b->rec[b->n++] = (addr & ADDR_MASK) | ((uint64_t)kind << 56);
  b->count[kind]++;
  if (b->n == BUF_RECORDS) flush_buf(b);
}

/* The instruction's address travels as the callback's user data: no lookup at run time. */
static void on_insn(unsigned int vcpu, void *udata) {
  put(vcpu, (uint64_t)(uintptr_t)udata, KIND_FETCH);
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata) {
  (void)udata;
  put(vcpu, vaddr, qemu_plugin_mem_is_store(info) ? KIND_STORE : KIND_LOAD);
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    uint64_t va = qemu_plugin_insn_vaddr(insn);
    qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, QEMU_PLUGIN_CB_NO_REGS,
                                           (void *)(uintptr_t)va);
    qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                     NULL);
  }
}

static void on_exit_cb(qemu_plugin_id_t id, void *p) {
  (void)id;
  (void)p;
  uint64_t total[KIND_COUNT] = {0};
  for (int v = 0; v < n_bufs; v++) {
    flush_buf(&bufs[v]);
    for (int k = 0; k < KIND_COUNT; k++) total[k] += bufs[v].count[k];
  }
  char line[256];
  if (write_errno != 0 || close(out_fd) != 0) {
    snprintf(line, sizeof line, "qemu_trace_plugin: writing %s failed: %s\n", out_path,
             strerror(write_errno ? write_errno : errno));
    fputs(line, stderr);
  }
  out_fd = -1;
  snprintf(line, sizeof line,
           "qemu_trace_plugin: fetches %" PRIu64 " loads %" PRIu64 " stores %" PRIu64
           " records %" PRIu64 " bytes %" PRIu64 "\n",
           total[KIND_FETCH], total[KIND_LOAD], total[KIND_STORE],
           total[KIND_FETCH] + total[KIND_LOAD] + total[KIND_STORE], bytes_written);
  fputs(line, stderr);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                           char **argv) {
  for (int i = 0; i < argc; i++) {
    if (strncmp(argv[i], "out=", 4) == 0 && argv[i][4] != '\0') {
      out_path = argv[i] + 4;
    } else {
      fprintf(stderr, "qemu_trace_plugin: unknown argument '%s' (expected out=PATH)\n", argv[i]);
      return -1;
    }
  }
  if (out_path == NULL) {
    fprintf(stderr, "qemu_trace_plugin: missing argument out=PATH (where the records go)\n");
    return -1;
  }
  /* One buffer per possible vCPU, indexed by QEMU's vCPU index. User mode gives no vCPU bound,
   * and the bench runs system emulation only: refuse rather than index past the array. */
  if (!info->system_emulation) {
    fprintf(stderr, "qemu_trace_plugin: system emulation only (this QEMU runs user mode)\n");
    return -1;
  }
  n_bufs = info->system.max_vcpus > 0 ? info->system.max_vcpus : 1;
  bufs = calloc((size_t)n_bufs, sizeof *bufs);
  if (bufs == NULL) {
    fprintf(stderr, "qemu_trace_plugin: out of memory for %d vCPU buffers\n", n_bufs);
    return -1;
  }
  out_fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out_fd < 0) {
    fprintf(stderr, "qemu_trace_plugin: cannot open %s for writing: %s\n", out_path,
            strerror(errno));
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
  qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
  return 0;
}
