// The assembly normaliser on objdump text as binutils 2.40 prints it (copied from real output of
// examples/inline_toggle, then shifted by hand to model a move), the LCS diff, and nm parsing.
#include "attribute/asm_diff.h"

#include <gtest/gtest.h>

#include "attribute/binutils.h"

namespace tare::attribute {
namespace {

// Work() of inline_toggle_outline as `objdump -d --no-show-raw-insn -C --wide` prints it.
const char* kWorkAt1210 = R"(
it_outline:     file format elf64-x86-64


Disassembly of section .text:

0000000000001210 <Work(unsigned char const*, unsigned long, long)>:
    1210:	test   %rdx,%rdx
    1213:	jle    1250 <Work(unsigned char const*, unsigned long, long)+0x40>
    1215:	push   %rbx
    1216:	mov    %rdi,%r11
    1225:	nopl   (%rax)
    1228:	mov    %r8,%rdx
    1231:	add    $0x1,%r8
    1235:	call   11d0 <Checksum(unsigned char const*, unsigned long, unsigned long)>
    123a:	lea    0xdc3(%rip),%rdi        # 2004 <_IO_stdin_used+0x4>
    123d:	cmp    %r8,%r10
    1240:	jne    1228 <Work(unsigned char const*, unsigned long, long)+0x18>
    1246:	ret
    1247:	nopw   0x0(%rax,%rax,1)
    1250:	xor    %eax,%eax
    1252:	ret
)";

// The same code 0x30 bytes further on, with a different padding nop (alignment depends on where
// the function starts) and a different rip displacement to the same datum.
const char* kWorkAt1240 = R"(
0000000000001240 <Work(unsigned char const*, unsigned long, long)>:
    1240:	test   %rdx,%rdx
    1243:	jle    1280 <Work(unsigned char const*, unsigned long, long)+0x40>
    1245:	push   %rbx
    1246:	mov    %rdi,%r11
    1255:	xchg   %ax,%ax
    1257:	data16 cs nopw 0x0(%rax,%rax,1)
    1258:	mov    %r8,%rdx
    1261:	add    $0x1,%r8
    1265:	call   11d0 <Checksum(unsigned char const*, unsigned long, unsigned long)>
    126a:	lea    0xd93(%rip),%rdi        # 2004 <_IO_stdin_used+0x4>
    126d:	cmp    %r8,%r10
    1270:	jne    1258 <Work(unsigned char const*, unsigned long, long)+0x18>
    1276:	ret
    1280:	xor    %eax,%eax
    1282:	ret
)";

TEST(NormalizeDisassembly, LabelsSymbolsAndNoAddresses) {
  std::vector<std::string> lines = NormalizeDisassembly(kWorkAt1210);
  std::vector<std::string> expected = {
      "test %rdx,%rdx",
      "jle L2",
      "push %rbx",
      "mov %rdi,%r11",
      "L1:",
      "mov %r8,%rdx",
      "add $0x1,%r8",
      "call <Checksum(unsigned char const*, unsigned long, unsigned long)>",
      "lea X(%rip),%rdi # <_IO_stdin_used+0x4>",
      "cmp %r8,%r10",
      "jne L1",
      "ret",
      "L2:",
      "xor %eax,%eax",
      "ret",
  };
  EXPECT_EQ(lines, expected);
}

TEST(NormalizeDisassembly, MovedCodeIsIdentical) {
  auto diff = DiffLines(NormalizeDisassembly(kWorkAt1210), NormalizeDisassembly(kWorkAt1240));
  EXPECT_FALSE(HasChanges(diff));
  EXPECT_EQ(diff.size(), 15u);
}

TEST(NormalizeDisassembly, OutOfFunctionTargetsLoseTheirOffset) {
  auto lines = NormalizeDisassembly("    10:\tjmp    2000 <other+0x1c>\n    15:\tbnd jmp 3000 <x@plt>\n");
  EXPECT_EQ(lines, (std::vector<std::string>{"jmp <other>", "bnd jmp <x@plt>"}));
}

TEST(DiffLines, LongestCommonSubsequence) {
  std::vector<std::string> a = {"a", "b", "c", "d", "e"};
  std::vector<std::string> b = {"a", "c", "x", "d", "e", "f"};
  auto diff = DiffLines(a, b);
  std::string rendered;
  for (const auto& l : diff) rendered += std::string(1, l.op) + l.text + " ";
  // LCS a c d e (length 4): b removed, x and f added.
  EXPECT_EQ(rendered, " a -b  c +x  d  e +f ");
  EXPECT_TRUE(HasChanges(diff));
}

TEST(DiffLines, EmptySides) {
  EXPECT_FALSE(HasChanges(DiffLines({}, {})));
  auto added = DiffLines({}, {"x"});
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].op, '+');
}

TEST(ChangedHunks, ContextAndGaps) {
  std::vector<std::string> a, b;
  for (int i = 0; i < 20; ++i) a.push_back(std::to_string(i));
  b = a;
  b[2] = "two";
  b[15] = "fifteen";
  auto hunks = ChangedHunks(DiffLines(a, b), 1);
  std::string rendered;
  for (const auto& l : hunks) rendered += std::string(1, l.op) + l.text + " ";
  EXPECT_EQ(rendered, " 1 -2 +two  3  ...  14 -15 +fifteen  16 ");
}

TEST(ParseNmOutput, SizedUnsizedAndDemangledNames) {
  auto symbols = ParseNmOutput(
      "0000000000001210 0000000000000043 T Work(unsigned char const*, unsigned long, long)\n"
      "00000000000011d0 0000000000000034 t Checksum(unsigned char const*, unsigned long, unsigned long)\n"
      "0000000000004010 B __bss_start\n"
      "garbage line\n");
  ASSERT_EQ(symbols.size(), 3u);
  EXPECT_EQ(symbols[0].address, 0x1210u);
  EXPECT_EQ(symbols[0].size, 0x43u);
  EXPECT_EQ(symbols[0].type, 'T');
  EXPECT_EQ(symbols[1].name, "Checksum(unsigned char const*, unsigned long, unsigned long)");
  EXPECT_EQ(symbols[2].size, 0u);
  EXPECT_EQ(symbols[2].type, 'B');
  EXPECT_FALSE(symbols[2].IsCode());

  auto found = FindCodeSymbols(symbols, "Checksum");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].address, 0x11d0u);
  EXPECT_EQ(FindCodeSymbols(symbols, "Work(unsigned char const*, unsigned long, long)").size(), 1u);
  EXPECT_TRUE(FindCodeSymbols(symbols, "__bss_start").empty());  // not code
}

}  // namespace
}  // namespace tare::attribute
