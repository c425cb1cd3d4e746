"""What the ISA test generators (gen_arith.py, gen_zb.py) share: XLEN=64 integer helpers and a
test file under construction (numbered cases, written as tests/isa/src/NAME.S)."""
M64 = (1 << 64) - 1
M32 = (1 << 32) - 1

def u64(x): return x & M64
def s64(x): x &= M64; return x - (1 << 64) if x >> 63 else x
def s32(x): x &= M32; return x - (1 << 32) if x >> 31 else x
def sext32(x): return s32(x) & M64
def h(x): return '0x%016x' % u64(x)

class TestFile:
    """One generated test: case lines numbered 1..255 (HTIF exit codes are 8 bits)."""
    def __init__(self, name, doc):
        self.name, self.doc, self.lines, self.n = name, doc, [], 0
    def num(self):
        self.n += 1
        assert self.n <= 255, self.name
        return self.n
    def raw(self, s): self.lines.append(s)
    def write_with(self, note):
        """Writes the file: the doc comment, `note` (the comment's rest, ending in ' */\\n'), the body."""
        with open(f'tests/isa/src/{self.name}.S', 'w') as f:
            f.write('/* %s: %s\n' % (self.name, self.doc))
            f.write(note)
            f.write('#include "isa_test.h"\nTEST_BEGIN\n\n')
            f.write('\n'.join(self.lines))
            f.write('\n\nTEST_END\n')
