# Convenience front end: `make` builds everything into build/ (CLI at build/ferry).
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
PREFIX ?= /usr/local

.PHONY: all test demo clean samples asan fuzz bench install python-wheel blender-addon web windows windows-test dist-windows

all: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

test: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Headers, libferry.a, libferry.so, ferry.pc, the CMake package and the CLI
# under PREFIX (include/, lib/, bin/).
install: all
	cmake --install $(BUILD) --prefix $(PREFIX)

# The Python package as a wheel bundling this build's libferry.so, into
# $(BUILD)/python/ (docs/python.md); offline, with Debian's python3-setuptools
# and python3-wheel.
PYTHON ?= python3
python-wheel: all
	rm -rf $(BUILD)/python
	FERRY_LIBRARY=$(abspath $(BUILD))/libferry.so $(PYTHON) -m pip wheel --no-build-isolation --no-deps --no-index -w $(BUILD)/python ./python

# The Blender add-on as one zip to install from Blender's preferences
# (docs/blender.md): the add-on, the Python package and this build's
# libferry.so, into $(BUILD)/ferry-blender-addon.zip.
blender-addon: all
	$(PYTHON) blender/make_addon.py $(BUILD)/libferry.so $(BUILD)/ferry-blender-addon.zip

demo: all
	bash tools/demo.sh $(BUILD)/ferry

samples: all
	$(BUILD)/make_samples samples
	$(BUILD)/make_odol_samples samples

asan:
	$(MAKE) BUILD=build-asan CMAKE_FLAGS="-DFERRY_SANITIZE=ON -DCMAKE_C_COMPILER=clang -DFERRY_BENCH=OFF" test

fuzz:
	cmake -S . -B build-fuzz -DFERRY_FUZZ=ON -DFERRY_BENCH=OFF -DCMAKE_C_COMPILER=clang
	cmake --build build-fuzz -j $(JOBS)

bench: all
	bash bench/run.sh $(BUILD)

# Windows, cross-built with MinGW-w64 (docs/cross-building.md): the
# dependency prefix (tools/cross/deps.sh, built once per machine, outside the
# tree), then libferry.dll with its import library, libferry.a and the C
# tests and ferry.exe in build-windows/ (without the Assimp reader and
# `ferry view`, whose libraries are not cross-built yet).
WINDOWS_BUILD ?= build-windows
WINDOWS_CMAKE_FLAGS ?=
windows:
	bash tools/cross/deps.sh mingw64 >/dev/null
	cmake -S . -B $(WINDOWS_BUILD) -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw64.cmake \
		-DFERRY_ASSIMP=OFF -DFERRY_VIEW=OFF -DFERRY_BENCH=OFF $(WINDOWS_CMAKE_FLAGS)
	cmake --build $(WINDOWS_BUILD) -j $(JOBS)

# The Windows build as a zip a modder unpacks and runs:
# build-windows/ferry-windows-x86_64.zip (tools/dist_windows.sh).
dist-windows: windows
	bash tools/dist_windows.sh $(WINDOWS_BUILD)

# The Windows build's ctest under wine, then its outputs and the CLI's
# against this (Linux) build's, the CLI's shell tests against ferry.exe
# (CLI_TESTS="basics meg ..." for some of them) and, after make
# dist-windows, the zip in a fresh wine prefix (tests/windows/run.sh).
windows-test: windows all
	JOBS=$(JOBS) bash tests/windows/run.sh $(WINDOWS_BUILD) $(BUILD)

clean:
	rm -rf build build-asan build-fuzz build-windows python/build python/ferry.egg-info

# The web viewer as a static folder, $(BUILD)/web (docs/web.md): libferry in
# WebAssembly (Debian's emscripten; the dependencies built once per machine
# by tools/cross/deps.sh wasm), the page and three.js from npm.
web:
	JOBS=$(JOBS) bash web/build.sh $(BUILD)
