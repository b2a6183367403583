# tensorcore.h - plain GNU Make. Outputs go under $(BUILD).
#   make            tests, lessons and tools
#   make tour       build and run every lesson in order (pictures, SVGs and CSVs in $(OUT_DIR))
#   make test       the whole test suite (see tests/run_tests.sh)
#   make cuda       compile every cuda/*.cu for $(CUDA_ARCH)
#   make gpu-check  compile and run every CUDA program, one log: $(GPU_LOG)
#   make bench      speed ratios measured in one run
#   make fuzz       build the libFuzzer harnesses (tests/fuzz/) and run each for
#                   FUZZ_SECONDS (needs clang with libFuzzer); make test replays their corpus
#   make validate   every published GPU measurement beside the simulator's prediction
#   make install PREFIX=/usr/local
#   make clean

CC       ?= cc
CXX      ?= c++
NVCC     ?= nvcc
CUDA_HOME ?= /usr/local/cuda
CUDA_ARCH ?= sm_80 sm_90
BUILD    ?= build
PREFIX   ?= /usr/local
GPU_LOG  ?= $(BUILD)/gpu-check.log

OPT      ?= -O2
WARN     := -Wall -Wextra -Werror -pedantic
CFLAGS   ?=
LDFLAGS  ?=
STB_INC  ?= /usr/include/stb
# Lessons and tcsim read the measured dataset from the source tree, wherever they run;
# lessons write their pictures to TC_OUT_DIR (support/plot.h) unless given --out DIR.
OUT_DIR  ?= $(abspath $(BUILD))/lesson-out
ALL_CFLAGS   := -std=c99 $(OPT) $(WARN) -I. -Isupport -DTC_DATASET='"$(CURDIR)/tests/measured/dataset.csv"' -DTC_OUT_DIR='"$(OUT_DIR)"' $(CFLAGS)
ALL_CXXFLAGS := -std=c++17 $(OPT) $(WARN) -I. -Itests $(CFLAGS)
LDLIBS   := -lm -lpthread

HAVE_NVCC := $(shell command -v $(NVCC) >/dev/null 2>&1 && echo yes)
HAVE_CUDA_INC := $(shell test -f $(CUDA_HOME)/include/cuda_fp16.h && echo yes)
HAVE_F16C := $(shell grep -qw f16c /proc/cpuinfo 2>/dev/null && echo yes)
HAVE_AVX2 := $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw f16c /proc/cpuinfo && echo yes)
HAVE_AVX512 := $(shell grep -qw avx512f /proc/cpuinfo 2>/dev/null && grep -qw avx512bw /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo \
                 && grep -qw avx512dq /proc/cpuinfo && grep -qw avx2 /proc/cpuinfo && grep -qw f16c /proc/cpuinfo && echo yes)
AVX512_FLAGS := -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mf16c
# VBMI (byte permutes: section 1's table widening) where the CPU has it, so
# that the _avx512 tests run that path too.
AVX512_FLAGS += $(if $(shell grep -qw avx512vbmi /proc/cpuinfo 2>/dev/null && echo yes),-mavx512vbmi)
# AVX512_BF16 likewise (section 1's bf16 RN narrowing by vcvtneps2bf16).
AVX512_FLAGS += $(if $(shell grep -qw avx512_bf16 /proc/cpuinfo 2>/dev/null && echo yes),-mavx512bf16)

TEST_C    := $(wildcard tests/test_*.c)
TEST_CXX  := $(wildcard tests/test_*.cpp)
LESSONS   := $(sort $(wildcard lessons/[0-9]*.c))
CUDA_SRCS := $(wildcard cuda/*.cu)
SIM_SRCS  := $(wildcard sim/*.c)
BENCH_SRCS := $(wildcard tests/bench_*.c)

TEST_BINS   := $(TEST_C:tests/%.c=$(BUILD)/tests/%) $(TEST_CXX:tests/%.cpp=$(BUILD)/tests/%) \
               $(BUILD)/tests/test_fenv_nosimd $(BUILD)/tests/test_fenv_c99 \
               $(if $(HAVE_AVX2),$(BUILD)/tests/test_formats_exhaustive_avx2 $(BUILD)/tests/test_gemm_fast_avx2 \
                 $(BUILD)/tests/test_formats_vec_avx2) \
               $(if $(HAVE_AVX512),$(BUILD)/tests/test_formats_exhaustive_avx512 $(BUILD)/tests/test_formats_vec_avx512 \
                 $(BUILD)/tests/test_gemm_fast_avx512)
LESSON_BINS := $(LESSONS:lessons/%.c=$(BUILD)/lessons/%)
CUDA_BINS   := $(CUDA_SRCS:cuda/%.cu=$(BUILD)/cuda/%)
BENCH_BINS  := $(BENCH_SRCS:tests/%.c=$(BUILD)/bench/%)
TOOL_BINS   := $(if $(SIM_SRCS),$(BUILD)/tcsim) $(BENCH_BINS)
SUPPORT_OBJS := $(BUILD)/obj/plot.o $(BUILD)/obj/stb_impl.o

CXX_ORACLE := $(if $(HAVE_CUDA_INC),-I$(CUDA_HOME)/include) $(if $(HAVE_F16C),-mf16c)
# Per-program architectures: NVCC_ARCH_<name> replaces CUDA_ARCH for that
# program (expanded in the recipe, where $* is the program's name).
NVCC_GENCODE = $(foreach a,$(or $(NVCC_ARCH_$*),$(CUDA_ARCH)),-gencode arch=compute_$(subst sm_,,$(a)),code=$(a))

# Dependencies: each compile writes the headers it read beside its output
# (name.d), so touching a header rebuilds exactly the programs that include it.
DEPFLAGS = -MMD -MP -MF $@.d

.PHONY: all tests lessons tools tour test cuda gpu-check bench validate install clean stb-check fuzz fuzz-build fuzz-replay
.DEFAULT_GOAL := all

all: tests lessons tools
tests: $(TEST_BINS)
lessons: $(LESSON_BINS)
tools: $(TOOL_BINS)

# stb comes from Debian's libstb-dev. Installed here when we are root on
# Debian; otherwise we stop and say how.
stb-check:
	@if [ ! -f $(STB_INC)/stb_image.h ] || [ ! -f $(STB_INC)/stb_image_write.h ] || [ ! -f $(STB_INC)/stb_easy_font.h ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing libstb-dev (stb_image.h, stb_image_write.h, stb_easy_font.h)"; \
	    (apt-get install -y -q libstb-dev >/dev/null || (apt-get update -q >/dev/null && apt-get install -y -q libstb-dev >/dev/null)) || exit 1; \
	  else \
	    echo "error: stb headers not found in $(STB_INC)."; \
	    echo "Install them with:  sudo apt-get install libstb-dev   (or set STB_INC=/path/to/stb)"; exit 1; \
	  fi; \
	fi

$(BUILD)/obj/stb_impl.o: support/stb_impl.c | stb-check
	@mkdir -p $(@D)
	$(CC) $(OPT) -w -I$(STB_INC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj/plot.o: support/plot.c | stb-check
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(STB_INC) $(DEPFLAGS) -c $< -o $@

$(BUILD)/tests/%: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)

# The GPU-measured dot products (tests/hw-vectors), read from the source tree wherever the test runs.
$(BUILD)/tests/test_hw_vectors: ALL_CFLAGS += -DTC_HW_VECTORS='"$(CURDIR)/tests/hw-vectors"'
# MMA-Sim's outputs (tests/mmasim), likewise.
$(BUILD)/tests/test_mmasim: ALL_CFLAGS += -DTC_MMASIM_VECTORS='"$(CURDIR)/tests/mmasim"'
# test_plot includes support/plot.c itself (to check the layout it chose), so
# it links stb alone, not plot.o.
$(BUILD)/tests/test_plot: tests/test_plot.c $(BUILD)/obj/stb_impl.o
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests -I$(STB_INC) $(DEPFLAGS) $< $(BUILD)/obj/stb_impl.o -o $@ $(LDFLAGS) $(LDLIBS)
# The GEMM's AVX2 and AVX-512 kernels (tensorcore.h section 2) are tested
# where the CPU has them: tests/test_gemm_fast.c built again with -mavx2 and
# with AVX512_FLAGS (the plain build tests the SSE2 kernel).
$(BUILD)/tests/test_gemm_fast_avx2: tests/test_gemm_fast.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -mavx2 -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)
$(BUILD)/tests/test_gemm_fast_avx512: tests/test_gemm_fast.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(AVX512_FLAGS) -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)

# The caller's floating-point environment (tests/test_fenv.c) where the
# header uses no SIMD kernels, and through <fenv.h> as CPUs without MXCSR do.
$(BUILD)/tests/test_fenv_nosimd: tests/test_fenv.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DTC_NO_SIMD -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)
$(BUILD)/tests/test_fenv_c99: tests/test_fenv.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DTC_NO_SIMD -DTC__FENV_C99 -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)

# Section 1's 8-lane and F16C array kernels, likewise: tests/test_formats_vec.c
# built a second time with -mavx2 -mf16c.
$(BUILD)/tests/test_formats_vec_avx2: tests/test_formats_vec.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -mavx2 -mf16c -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)
# And with AVX-512 (F, BW, VL, DQ), where the CPU has it, for the kernels'
# AVX-512VL steps.
$(BUILD)/tests/test_formats_vec_avx512: tests/test_formats_vec.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(AVX512_FLAGS) -Itests $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)

# The exhaustive oracle tests are C++ because the CUDA headers' host code is.
$(BUILD)/tests/%: tests/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(ALL_CXXFLAGS) $(CXX_ORACLE) $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)

# The same test built for AVX2, so that the 8-lane conversion kernels are
# checked too (run_tests.sh samples it; the default build checks SSE2).
$(BUILD)/tests/test_formats_exhaustive_avx2: tests/test_formats_exhaustive.cpp
	@mkdir -p $(@D)
	$(CXX) $(ALL_CXXFLAGS) $(CXX_ORACLE) -mavx2 -mf16c $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)
$(BUILD)/tests/test_formats_exhaustive_avx512: tests/test_formats_exhaustive.cpp
	@mkdir -p $(@D)
	$(CXX) $(ALL_CXXFLAGS) $(CXX_ORACLE) $(AVX512_FLAGS) $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)

$(BUILD)/lessons/%: lessons/%.c $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(STB_INC) $(DEPFLAGS) $< $(SUPPORT_OBJS) -o $@ $(LDFLAGS) $(LDLIBS)

$(BUILD)/tcsim: sim/tcsim.c $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -I$(STB_INC) $(DEPFLAGS) $< $(SUPPORT_OBJS) -o $@ $(LDFLAGS) $(LDLIBS)

# Benchmarks (tests/bench_*.c, one per section) are built with -O3
# -march=native: they measure what the header can do on this machine, as a
# user's optimised build would. Each prints ratios against a reference
# measured in the same run; none asserts a time.
$(BUILD)/bench/%: tests/%.c
	@mkdir -p $(@D)
	$(CC) -std=c99 -O3 -march=native $(WARN) -I. -Itests $(CFLAGS) $(DEPFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)

# make bench CPFLOAT_DIR=/path/to/cpfloat (a checkout of
# github.com/north-numerical-computing/cpfloat; not part of this repository)
# adds cpfloat's fp32 -> fp16/bf16/tf32 speed to bench_formats, same run.
CPFLOAT_DIR ?=
$(BUILD)/bench/bench_formats: CFLAGS += $(if $(CPFLOAT_DIR),-DTC_BENCH_CPFLOAT -isystem $(CPFLOAT_DIR)/src -Wno-cpp)

tour: lessons
	@for l in $(LESSON_BINS); do \
	  echo; echo "================ $$(basename $$l) ================"; \
	  ./$$l --out $(OUT_DIR) || exit 1; \
	done; echo; echo "pictures (PNG, SVG) and their data (CSV) are in $(OUT_DIR)/"

test: all
	@BUILD=$(BUILD) CC=$(CC) CXX=$(CXX) NVCC=$(NVCC) CUDA_HOME=$(CUDA_HOME) FUZZ_CC=$(FUZZ_CC) \
	  FUZZ_REPLAY_REPRODUCERS=$(FUZZ_REPLAY_REPRODUCERS) bash tests/run_tests.sh

# ---- fuzzing (tests/fuzz/, README "Fuzzing")
# make fuzz: each harness under libFuzzer (ASan + UBSan) for FUZZ_SECONDS,
# one process at a time (-fork=1, crashes saved and the run continued), new
# inputs kept in $(BUILD)/fuzz/corpus/NAME beside the committed seeds of
# tests/fuzz/corpus/NAME; then tests/fuzz/triage.sh groups the crashes.
# make fuzz-replay: the replay drivers (no libFuzzer runtime needed) that
# make test runs on the committed corpus. FUZZ_REPLAY_REPRODUCERS=1 adds
# tests/fuzz/reproducers/NAME: the inputs of the header bugs fuzzing found
# (all fixed; the replay keeps them fixed). Set it to 0 to replay the seeds only.
# FUZZ_SKIP_KNOWN=1 builds the fuzzers to steer around those known bugs.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_REPLAY_REPRODUCERS ?= 1
FUZZ_SKIP_KNOWN ?= 0
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SAN     := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=c99 -O1 -g -Wall -Wextra -I. -Isupport -Itests/fuzz -I$(STB_INC) \
                -DTC_DATASET='"$(CURDIR)/tests/measured/dataset.csv"'
FUZZ_OBJS    := $(BUILD)/fuzz/obj/plot.o $(BUILD)/fuzz/obj/stb_impl.o

FUZZ_DEPS    := tensorcore.h tests/fuzz/fuzz.h $(wildcard support/*.h)

$(BUILD)/fuzz/obj/stb_impl.o: support/stb_impl.c | stb-check
	@mkdir -p $(@D)
	$(FUZZ_CC) -O1 -g -w -I$(STB_INC) $(FUZZ_SAN) -c $< -o $@

$(BUILD)/fuzz/obj/plot.o: support/plot.c | stb-check
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c99 -O1 -g -I. -Isupport -I$(STB_INC) $(FUZZ_SAN) -c $< -o $@

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS) $(FUZZ_OBJS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DFUZZ_SKIP_KNOWN=$(FUZZ_SKIP_KNOWN) -fsanitize=fuzzer $(FUZZ_SAN) $< $(FUZZ_LINK_$*) -o $@ -lm

$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_DEPS) $(FUZZ_OBJS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) $< tests/fuzz/replay.c $(FUZZ_LINK_$*) -o $@ -lm

# fuzz_tcsim_args runs tcsim itself (fork/exec, never linking sim/): a
# clang ASan+UBSan build of it, whose path the harness is built with. Its
# inputs may run `tcsim validate` (seconds), so make fuzz gives it 60 s an
# input where the in-process harnesses get 10 (its own limit is 30 s).
$(BUILD)/fuzz/tcsim: sim/tcsim.c $(FUZZ_DEPS) $(FUZZ_OBJS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) $< $(FUZZ_OBJS) -o $@ -lm -lpthread
$(BUILD)/fuzz/fuzz_tcsim_args $(BUILD)/fuzz/replay_tcsim_args: $(BUILD)/fuzz/tcsim
FUZZ_LINK_tcsim_args := -DFUZZ_TCSIM='"$(CURDIR)/$(BUILD)/fuzz/tcsim"'

fuzz-build: $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%) $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay_%)
fuzz-replay: $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay_%)

fuzz: fuzz-build
	@for n in $(FUZZ_NAMES); do \
	  mkdir -p $(BUILD)/fuzz/corpus/$$n $(BUILD)/fuzz/crashes/$$n; \
	  echo "== fuzz_$$n for $(FUZZ_SECONDS) s"; \
	  t=10; [ $$n = tcsim_args ] && t=60; \
	  ./$(BUILD)/fuzz/fuzz_$$n -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -timeout=$$t -rss_limit_mb=2048 \
	    -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(BUILD)/fuzz/crashes/$$n/ \
	    $(BUILD)/fuzz/corpus/$$n tests/fuzz/corpus/$$n > $(BUILD)/fuzz/$$n.log 2>&1; \
	  tail -n 2 $(BUILD)/fuzz/$$n.log; \
	done; \
	bash tests/fuzz/triage.sh $(BUILD) $(FUZZ_NAMES)

cuda:
ifeq ($(HAVE_NVCC),yes)
	@$(MAKE) --no-print-directory $(CUDA_BINS)
else
	@echo "make cuda: nvcc not found (install the CUDA Toolkit or set NVCC=); skipping $(words $(CUDA_SRCS)) CUDA programs"
endif

# Per-program nvcc flags: NVCC_FLAGS_<name>. loss_scaling compares a GPU
# training run with the CPU's bit for bit, so its device code must not fuse
# a*b+c into an FMA where the host rounds twice (support/mlp.h).
NVCC_FLAGS_loss_scaling := -fmad=false
# FP8 mma.sync exists from sm_89 on; sm_100a and sm_120a are the Blackwell
# targets (mma.sync there needs no "a" features, but sm_100 parts run only
# sm_100/sm_100a code, and the "a" targets are what the issue names).
NVCC_ARCH_fp8_mma := sm_89 sm_90 sm_100a sm_120a
# mma.sync kind::f8f6f4 with FP6/FP4 operands: sm_120a only (ptxas refuses it for sm_100a).
NVCC_ARCH_f8f6f4_mma := sm_120a
# wgmma.mma_async: sm_90a only (the "a" features; plain sm_90 has no wgmma).
NVCC_ARCH_wgmma := sm_90a

$(BUILD)/cuda/%: cuda/%.cu
	@mkdir -p $(@D)
	$(NVCC) -std=c++17 -O3 $(NVCC_GENCODE) $(NVCC_FLAGS_$*) -I. -Isupport -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror $(DEPFLAGS) $< -o $@ -lcublas

# Runs every CUDA program (exit 2 = no suitable GPU, reported, not a failure).
gpu-check: cuda
	@mkdir -p $(dir $(GPU_LOG))
	@status=0; { echo "# make gpu-check on $$(hostname), $$(date -u +%Y-%m-%dT%H:%MZ)"; \
	  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1 || true; } > $(GPU_LOG); \
	for p in $(CUDA_BINS); do \
	  echo "## $$p" | tee -a $(GPU_LOG); \
	  ./$$p >> $(GPU_LOG) 2>&1; rc=$$?; \
	  echo "## exit $$rc" | tee -a $(GPU_LOG); \
	  if [ $$rc = 2 ]; then echo "   (no suitable GPU)"; elif [ $$rc != 0 ]; then status=1; fi; \
	done; echo "log: $(GPU_LOG)"; exit $$status

validate: $(BUILD)/tcsim
	@$(BUILD)/tcsim validate

bench: $(BENCH_BINS)
	@for b in $(BENCH_BINS); do ./$$b || exit 1; done

install:
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 tensorcore.h $(DESTDIR)$(PREFIX)/include/tensorcore.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|'"$$(sed -n 's/^#define TC_VERSION_STRING "\(.*\)"/\1/p' tensorcore.h)"'|' \
	  tensorcore.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/tensorcore.pc

clean:
	rm -rf $(BUILD)

-include $(wildcard $(BUILD)/*.d $(BUILD)/*/*.d)
