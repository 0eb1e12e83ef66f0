#pragma once

// Whether the test is built with AddressSanitizer: GCC says so by a macro, clang by a feature test.
#if defined(__SANITIZE_ADDRESS__)
#define BERTH_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BERTH_UNDER_ASAN 1
#endif
#endif

#ifdef BERTH_UNDER_ASAN
inline constexpr bool underAsan = true;
#else
inline constexpr bool underAsan = false;
#endif
