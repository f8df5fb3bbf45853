/* ferry: the FERRY_API mark on every public function.
 *
 * ELF (Linux): the library is compiled with hidden visibility
 * (-fvisibility=hidden), so only what carries FERRY_API is exported from
 * libferry.so: the ferry_* functions of include/ferry/. Everything else (the
 * fy_* internals) stays inside the library.
 *
 * Windows: a DLL exports what is marked __declspec(dllexport) when it is
 * built, and its users call through the import library when the
 * declarations say __declspec(dllimport). So FERRY_API is
 *   - dllexport while libferry.dll itself is compiled (FERRY_BUILD_DLL,
 *     which only the library's build defines);
 *   - nothing for the static library and its users: define FERRY_STATIC
 *     when linking libferry.a (CMake's ferry::ferry_static does);
 *   - dllimport otherwise, for programs that use libferry.dll.
 * Included by ferry.h, hence by every public header.
 */
#ifndef FERRY_EXPORT_H
#define FERRY_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(FERRY_BUILD_DLL)
#define FERRY_API __declspec(dllexport)
#elif defined(FERRY_STATIC)
#define FERRY_API
#else
#define FERRY_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define FERRY_API __attribute__((visibility("default")))
#else
#define FERRY_API
#endif

#endif
