// Heap allocations counted by a replaced global operator new (tests/alloc_counter.cpp), in the
// test programs that link it; under sanitizers, which bring their own allocator, nothing is
// counted (alloc_counter_off.cpp) and counting() says so.
#pragma once

namespace odds::test {
long allocations();  // so far, in this process
bool counting();
}  // namespace odds::test
