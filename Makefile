# Thin wrapper: set-up (Debian packages when root), configure, build, test, demo.
BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
DEB_PKGS   := cmake pkg-config gcc make libpcre2-dev libcjson-dev libxlsxwriter-dev \
              libcairo2-dev libpango1.0-dev libarchive-dev liburing-dev libaio-dev \
              libcmocka-dev libinih-dev nettle-dev zlib1g-dev fonts-wqy-microhei unzip zip python3 \
              python3-pandas python3-distributed parallel man-db zsh fish
# Installed when they can be; the build works without them (libisal: gzip by ISA-L,
# src/input/gunzip.h, else libarchive's zlib).
DEB_OPTIONAL := libisal-dev

PREFIX     ?= /usr/local

.PHONY: all deps build build-asan test test-plain test-asan demo install clean

all: build

deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    (apt-get update -qq || true) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else echo "missing Debian packages (run as root to install):$$missing"; exit 1; fi; \
	fi
	@missing=""; for p in $(DEB_OPTIONAL); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ]; then \
	  echo "installing (optional):$$missing"; \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; }; } || \
	    echo "optional packages not installed:$$missing (the build goes on without them)"; \
	elif [ -n "$$missing" ]; then echo "optional Debian packages missing:$$missing"; fi

# Profile-guided: an instrumented program (in $(BUILD)-pgo) parses the repository's
# own fio outputs (cmake/pgo-train.sh), then $(BUILD) is compiled with its profiles
# (CMakeLists.txt: FIOSCOPE_PGO_*). PGO=0 builds without them.
PGO        ?= 1
PGO_BUILD  := $(BUILD)-pgo
PGO_DATA   := $(abspath $(PGO_BUILD))/profiles

build: deps
ifeq ($(PGO),1)
	cmake -S . -B $(PGO_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF \
	  -DFIOSCOPE_PGO_GENERATE=$(PGO_DATA) >/dev/null
	cmake --build $(PGO_BUILD) -j $(JOBS) --target fioscope
	rm -rf $(PGO_DATA) && cmake/pgo-train.sh $(PGO_BUILD)/fioscope
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFIOSCOPE_PGO_USE=$(PGO_DATA) >/dev/null
else
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFIOSCOPE_PGO_USE= >/dev/null
endif
	cmake --build $(BUILD) -j $(JOBS)

build-asan: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DFIOSCOPE_SANITIZE=ON >/dev/null
	cmake --build $(BUILD_ASAN) -j $(JOBS)

test-plain: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j $(JOBS)

# The whole suite, plain and under ASan+UBSan with leak checking.
test: test-plain test-asan

# samples/README.md holds no fio run (it would make the exit status 1): leave it out.
demo: build
	./$(BUILD)/fioscope report -o demo-report $(sort $(filter-out samples/README.md,$(wildcard samples/*)))

# The program, man page, completions, libfioscope (shared and static), its header,
# fioscope.pc and the Python module under PREFIX (DESTDIR is honoured for packaging).
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD) $(PGO_BUILD) $(BUILD_ASAN) demo-report
