// Which sanitizer a translation unit is built with, under gcc (which
// defines __SANITIZE_*__) and clang (which answers __has_feature).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define SLUICE_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLUICE_ADDRESS_SANITIZER 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define SLUICE_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SLUICE_THREAD_SANITIZER 1
#endif
#endif
