# Thin wrapper: set-up (Debian packages when root), configure, build, test, demo.
BUILD      ?= build
BUILD_ASAN ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
DEB_PKGS   := cmake pkg-config gcc make libpcre2-dev libcjson-dev libxlsxwriter-dev \
              libcairo2-dev libpango1.0-dev libarchive-dev liburing-dev libaio-dev \
              libcmocka-dev libinih-dev nettle-dev zlib1g-dev fonts-wqy-microhei unzip zip python3 \
              python3-pandas python3-distributed parallel man-db zsh fish

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

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
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
	rm -rf $(BUILD) $(BUILD_ASAN) demo-report
