/* ferry: the FERRY_API mark on every public function.
 *
 * The library is compiled with hidden visibility (-fvisibility=hidden), so
 * only what carries FERRY_API is exported from libferry.so: the ferry_*
 * functions of include/ferry/. Everything else (the fy_* internals) stays
 * inside the library. Included by ferry.h, hence by every public header.
 */
#ifndef FERRY_EXPORT_H
#define FERRY_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define FERRY_API __attribute__((visibility("default")))
#else
#define FERRY_API
#endif

#endif
