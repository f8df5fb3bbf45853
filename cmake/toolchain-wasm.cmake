# Cross build for WebAssembly with Debian's emscripten: a thin layer over the
# toolchain file emscripten ships, which adds the dependencies' prefix.
#
#   cmake -S . -B build-wasm -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-wasm.cmake \
#         [-DFERRY_DEPS_PREFIX=$HOME/.cache/ferry-deps/wasm]
#
# (equivalent to `emcmake cmake ...` plus the prefix). FERRY_DEPS_PREFIX is
# where tools/cross/deps.sh wasm installed the dependencies; pkg-config and
# the find_* commands look there and in emscripten's sysroot only.

if(NOT FERRY_DEPS_PREFIX)
  if(DEFINED ENV{FERRY_DEPS_PREFIX})
    set(FERRY_DEPS_PREFIX "$ENV{FERRY_DEPS_PREFIX}")
  elseif(DEFINED ENV{FERRY_DEPS_CACHE})
    set(FERRY_DEPS_PREFIX "$ENV{FERRY_DEPS_CACHE}/wasm")
  else()
    set(FERRY_DEPS_PREFIX "$ENV{HOME}/.cache/ferry-deps/wasm")
  endif()
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES FERRY_DEPS_PREFIX)

if(NOT EMSCRIPTEN_ROOT_PATH)
  find_path(EMSCRIPTEN_ROOT_PATH emcc.py PATHS /usr/share/emscripten $ENV{EMSCRIPTEN} NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
endif()

# emcc's JavaScript passes load acorn, which Debian installs as node-acorn
# under /usr/share/nodejs, not beside emcc: NODE_PATH names that folder.
# Debian's emcc runs ${EMSDK_PYTHON:-python3}: Debian's python3, not the
# first python3 on PATH (a pyenv shim costs 0.4 s per emcc call). Both are
# set here for configure-time checks and through launchers for the build.
set(FERRY_EMCC_ENV NODE_PATH=/usr/share/nodejs)
if(EXISTS /usr/bin/python3)
  list(APPEND FERRY_EMCC_ENV EMSDK_PYTHON=/usr/bin/python3)
endif()
foreach(assignment ${FERRY_EMCC_ENV})
  string(REGEX MATCH "^[^=]+" name "${assignment}")
  string(REGEX REPLACE "^[^=]+=" "" value "${assignment}")
  set(ENV{${name}} "${value}")
endforeach()
foreach(lang C CXX)
  set(CMAKE_${lang}_COMPILER_LAUNCHER env ${FERRY_EMCC_ENV})
  set(CMAKE_${lang}_LINKER_LAUNCHER env ${FERRY_EMCC_ENV})
endforeach()

# Tests run with node. Emscripten 3.1.6's loader takes node's fetch (on by
# default since node 18) for a browser's and fails to read the .wasm file
# from disk; without fetch it reads it with fs.
find_program(FERRY_NODE NAMES nodejs node)
if(FERRY_NODE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${FERRY_NODE} --no-experimental-fetch)
endif()

include(${EMSCRIPTEN_ROOT_PATH}/cmake/Modules/Platform/Emscripten.cmake)

list(APPEND CMAKE_FIND_ROOT_PATH ${FERRY_DEPS_PREFIX})
set(ENV{PKG_CONFIG_LIBDIR} "${FERRY_DEPS_PREFIX}/lib/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")
