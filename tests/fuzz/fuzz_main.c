/*
 * fuzz_main.c: the libFuzzer entry point of one target.  Input: the
 * fuzzer's bytes.  FUZZ_TARGET is the name of the target in harness.c's
 * fuzz_targets[] (set per executable by tests/fuzz/CMakeLists.txt).
 */
#include <stddef.h>
#include <stdint.h>

#include "harness.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static fuzz_fn fn;
  size_t i;

  for (i = 0; !fn && i < sizeof(fuzz_targets) / sizeof(fuzz_targets[0]); i++)
    if (!strcmp(fuzz_targets[i].name, FUZZ_TARGET))
      fn = fuzz_targets[i].fn;
  if (!fn)
    abort();
  fn(data, size);
  return 0;
}
