# Cross build for Windows x86_64 with Debian's MinGW-w64 (gcc-mingw-w64-x86-64):
#
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw64.cmake \
#         [-DFERRY_DEPS_PREFIX=$HOME/.cache/ferry-deps/mingw64]
#
# FERRY_DEPS_PREFIX is where tools/cross/deps.sh mingw64 installed the
# dependencies (its default is the script's default). pkg-config and the
# find_* commands look there and in the MinGW sysroot only, never in the
# host's /usr. Tests run under wine (CMAKE_CROSSCOMPILING_EMULATOR).

set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(FERRY_CROSS_TRIPLET x86_64-w64-mingw32)

if(NOT FERRY_DEPS_PREFIX)
  if(DEFINED ENV{FERRY_DEPS_PREFIX})
    set(FERRY_DEPS_PREFIX "$ENV{FERRY_DEPS_PREFIX}")
  elseif(DEFINED ENV{FERRY_DEPS_CACHE})
    set(FERRY_DEPS_PREFIX "$ENV{FERRY_DEPS_CACHE}/mingw64")
  else()
    set(FERRY_DEPS_PREFIX "$ENV{HOME}/.cache/ferry-deps/mingw64")
  endif()
endif()
# try_compile projects read this file again: pass the prefix on to them.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES FERRY_DEPS_PREFIX)

set(CMAKE_C_COMPILER ${FERRY_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${FERRY_CROSS_TRIPLET}-g++)
set(CMAKE_RC_COMPILER ${FERRY_CROSS_TRIPLET}-windres)
set(CMAKE_AR ${FERRY_CROSS_TRIPLET}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${FERRY_CROSS_TRIPLET}-ranlib CACHE FILEPATH "")

set(CMAKE_FIND_ROOT_PATH /usr/${FERRY_CROSS_TRIPLET} ${FERRY_DEPS_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The host's pkg-config, reading only the prefix's .pc files: PKG_CONFIG_LIBDIR
# replaces the default search path (/usr/lib/x86_64-linux-gnu/pkgconfig...).
set(ENV{PKG_CONFIG_LIBDIR} "${FERRY_DEPS_PREFIX}/lib/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")

# The DLL and the programs carry libgcc and winpthread inside them, so that
# they run under wine or on Windows without MinGW's runtime DLLs beside them.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-static")

find_program(FERRY_WINE NAMES wine)
if(FERRY_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${FERRY_WINE})
endif()
