/*
 * A qemu TCG plugin that counts the ARM instructions a guest program executes: the figure the
 * EV3's ARM926EJ-S pays for in cycles, where host seconds say nothing about the brick.
 *
 * Built and used by scripts/arm-instructions.sh. Arguments (qemu's -plugin count.so,name=value):
 *   progress=FILE  the running totals, instructions and system calls, rewritten in place (one
 *                  line of two 20-digit numbers) at most every PROGRESS_NS of host time,
 *                  checked at each of the guest's system calls: a test that knows when each
 *                  phase began reads it then.
 *   blocks=FILE    at exit, each translated block's start address, its instruction count and
 *                  how often it ran, for attributing the count to the binary's functions.
 *   calls=FILE     at exit, how many of each system call (by the guest's number) were made.
 *   pace_ns=N      hold the program to N ns an instruction, as a slower CPU would: at each
 *                  system call, if its instructions since the last one needed more time at N ns
 *                  than passed on the host, the calling thread sleeps the difference. Time the
 *                  program spends blocked (sleeping, in a system call) pays nothing back: a
 *                  CPU's idle time cannot be spent later. All threads share one budget, as they
 *                  share the brick's one core.
 *   busy=FILE      with pace_ns: while FILE exists, another program takes busy_percent of the
 *   busy_percent=N CPU (the robot's voice), so each instruction costs 100 / (100 - N) times
 *                  as much.
 *
 * Written against qemu's plugin API version 1 (that of Debian 12's qemu 7.2), whose
 * declarations are repeated below so the plugin builds without qemu's source.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* qemu's plugin API, version 1: the calls this plugin makes. */
typedef uint64_t qemu_plugin_id_t;
typedef struct {
    const char *target_name;
    struct {
        int min;
        int cur;
    } version;
    bool system_emulation;
} qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_tb_trans_cb)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*qemu_plugin_syscall_cb)(qemu_plugin_id_t, unsigned int, int64_t, uint64_t,
                                       uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                                       uint64_t, uint64_t);
typedef void (*qemu_plugin_syscall_ret_cb)(qemu_plugin_id_t, unsigned int, int64_t, int64_t);
typedef void (*qemu_plugin_udata_cb)(qemu_plugin_id_t, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, qemu_plugin_tb_trans_cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *, enum qemu_plugin_op,
                                              void *, uint64_t);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t, qemu_plugin_syscall_cb);
void qemu_plugin_register_vcpu_syscall_ret_cb(qemu_plugin_id_t, qemu_plugin_syscall_ret_cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, qemu_plugin_udata_cb, void *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* Often enough that a phase of a second is measured to within half a percent. */
#define PROGRESS_NS 5000000ULL

/* One translation of a block: qemu may translate the same address again (after a flush). */
struct block {
    uint64_t vaddr;
    uint64_t instructions;
    uint64_t runs;
    struct block *next;
};

static uint64_t total;
static uint64_t system_calls;
/* Each system call's count, by number (ARM EABI numbers are below 512). */
#define NUMBERS 512
static uint64_t calls_by_number[NUMBERS];
static const char *calls_path;
static struct block *blocks;
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static int progress_fd = -1;
static uint64_t progress_written_ns;
static const char *blocks_path;

/* The pace: ns an instruction (0: the host's own), and when the last system call returned
 * with how many instructions done by then. */
static uint64_t pace_ns;
static pthread_mutex_t pace_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t computing_since_ns;
static uint64_t computing_since_total;
static const char *busy_path;
static uint64_t busy_percent;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static void write_progress(void)
{
    char line[48];
    int n = snprintf(line, sizeof line, "%020" PRIu64 " %020" PRIu64 "\n", total,
                     __atomic_load_n(&system_calls, __ATOMIC_RELAXED));
    /* One write at offset 0: a reader sees the old line or the new one, both whole. */
    if (pwrite(progress_fd, line, (size_t)n, 0) != n) {
        progress_fd = -1;
    }
}

static void on_translation(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &total, n);
    if (blocks_path == NULL) {
        return;
    }
    struct block *block = calloc(1, sizeof *block);
    if (block == NULL) {
        return;
    }
    block->vaddr = qemu_plugin_tb_vaddr(tb);
    block->instructions = n;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &block->runs, 1);
    pthread_mutex_lock(&blocks_lock);
    block->next = blocks;
    blocks = block;
    pthread_mutex_unlock(&blocks_lock);
}

/* Before a system call: the instructions since the last one returned, at the pace, against
 * the host time that took; the thread sleeps off what the slower CPU would still owe. */
static void keep_pace(void)
{
    pthread_mutex_lock(&pace_lock);
    uint64_t now = now_ns();
    uint64_t needed = (total - computing_since_total) * pace_ns;
    if (busy_path != NULL && busy_percent < 100 && access(busy_path, F_OK) == 0) {
        needed = needed * 100 / (100 - busy_percent);
    }
    uint64_t taken = now - computing_since_ns;
    computing_since_total = total;
    computing_since_ns = now;
    pthread_mutex_unlock(&pace_lock);
    if (needed > taken) {
        uint64_t owed = needed - taken;
        struct timespec t = {(time_t)(owed / 1000000000ULL), (long)(owed % 1000000000ULL)};
        nanosleep(&t, NULL);
    }
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1,
                       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
                       uint64_t a7, uint64_t a8)
{
    (void)id, (void)vcpu, (void)num, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5,
        (void)a6, (void)a7, (void)a8;
    __atomic_fetch_add(&system_calls, 1, __ATOMIC_RELAXED);
    if (num >= 0 && num < NUMBERS) {
        __atomic_fetch_add(&calls_by_number[num], 1, __ATOMIC_RELAXED);
    }
    if (pace_ns > 0) {
        keep_pace();
    }
    if (progress_fd < 0) {
        return;
    }
    uint64_t now = now_ns();
    if (now - progress_written_ns >= PROGRESS_NS) {
        progress_written_ns = now;
        write_progress();
    }
}

/* After a system call: computing starts again from here (its blocked time paid nothing). */
static void on_syscall_return(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, int64_t ret)
{
    (void)id, (void)vcpu, (void)num, (void)ret;
    pthread_mutex_lock(&pace_lock);
    computing_since_ns = now_ns();
    computing_since_total = total;
    pthread_mutex_unlock(&pace_lock);
}

static void at_exit(qemu_plugin_id_t id, void *data)
{
    (void)id, (void)data;
    if (progress_fd >= 0) {
        write_progress();
    }
    if (calls_path != NULL) {
        FILE *calls = fopen(calls_path, "w");
        for (int n = 0; calls != NULL && n < NUMBERS; n++) {
            if (calls_by_number[n] > 0) {
                fprintf(calls, "%d %" PRIu64 "\n", n, calls_by_number[n]);
            }
        }
        if (calls != NULL) {
            fclose(calls);
        }
    }
    if (blocks_path == NULL) {
        return;
    }
    FILE *out = fopen(blocks_path, "w");
    if (out == NULL) {
        return;
    }
    pthread_mutex_lock(&blocks_lock);
    for (struct block *b = blocks; b != NULL; b = b->next) {
        if (b->runs > 0) {
            fprintf(out, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", b->vaddr, b->instructions,
                    b->runs);
        }
    }
    pthread_mutex_unlock(&blocks_lock);
    fclose(out);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const qemu_info_t *info,
                                                               int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "progress=", 9) == 0) {
            progress_fd = open(argv[i] + 9, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
            if (progress_fd < 0) {
                fprintf(stderr, "count.so: cannot write %s\n", argv[i] + 9);
                return 1;
            }
        } else if (strncmp(argv[i], "blocks=", 7) == 0) {
            blocks_path = argv[i] + 7;
        } else if (strncmp(argv[i], "calls=", 6) == 0) {
            calls_path = argv[i] + 6;
        } else if (strncmp(argv[i], "pace_ns=", 8) == 0) {
            pace_ns = strtoull(argv[i] + 8, NULL, 10);
        } else if (strncmp(argv[i], "busy=", 5) == 0) {
            busy_path = argv[i] + 5;
        } else if (strncmp(argv[i], "busy_percent=", 13) == 0) {
            busy_percent = strtoull(argv[i] + 13, NULL, 10);
        } else {
            fprintf(stderr,
                    "count.so: unknown argument %s (progress=FILE, blocks=FILE, calls=FILE, "
                    "pace_ns=N, busy=FILE, busy_percent=N)\n",
                    argv[i]);
            return 1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translation);
    qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
    if (pace_ns > 0) {
        computing_since_ns = now_ns();
        qemu_plugin_register_vcpu_syscall_ret_cb(id, on_syscall_return);
    }
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
