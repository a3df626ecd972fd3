#define _GNU_SOURCE
#include "cpu_state.h"

#include <dlfcn.h>
#include <stddef.h>

const char *vm_library_path_of(const void *address) {
    Dl_info info;
    return dladdr(address, &info) != 0 ? info.dli_fname : NULL;
}

#if defined(__x86_64__) && defined(__linux__)
#include <cpuid.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define ARCH_GET_XCOMP_SUPP 0x1021
#define ARCH_REQ_XCOMP_PERM 0x1023
#define XFEATURE_XTILEDATA 18

uint64_t vm_cpu_os_xsave_state(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 27))) {
        return 0;  // no OSXSAVE: the OS saves no extended state, XGETBV would fault
    }
    uint32_t low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return ((uint64_t)high << 32) | low;
}

// The 64-byte tile configuration of LDTILECFG: palette 1, tile 0 of 1 row of 4 bytes.
typedef struct __attribute__((aligned(64))) {
    uint8_t palette_id;
    uint8_t start_row;
    uint8_t reserved[14];
    uint16_t colsb[16];
    uint8_t rows[16];
} tile_config;

// Encoded as bytes, so that no compiler flag turns AMX on for this file or anything else.
static void run_tiles(const tile_config *config) {
    __asm__ volatile(".byte 0xc4, 0xe2, 0x78, 0x49, 0x07" ::"D"(config) : "memory");  // ldtilecfg (%rdi)
    __asm__ volatile(".byte 0xc4, 0xe2, 0x7b, 0x49, 0xc0" ::: "memory");              // tilezero %tmm0
    __asm__ volatile(".byte 0xc4, 0xe2, 0x78, 0x49, 0xc0" ::: "memory");              // tilerelease
}

vm_amx_state vm_cpu_amx_probe(int *signal_out) {
    uint64_t supported = 0;
    if (syscall(SYS_arch_prctl, ARCH_GET_XCOMP_SUPP, &supported) != 0 || !(supported & (1ull << XFEATURE_XTILEDATA))) {
        return VM_AMX_NOT_OFFERED;
    }
    pid_t child = fork();
    if (child < 0) {
        return VM_AMX_UNTESTED;
    }
    if (child == 0) {
        // Only async-signal-safe work here: the parent may have many threads.
        if (syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) != 0) {
            _exit(VM_AMX_REFUSED);
        }
        tile_config config = {0};
        config.palette_id = 1;
        config.rows[0] = 1;
        config.colsb[0] = 4;
        run_tiles(&config);
        _exit(VM_AMX_USABLE);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        // EINTR: wait again
    }
    if (WIFSIGNALED(status)) {
        if (signal_out) *signal_out = WTERMSIG(status);
        return VM_AMX_FAULTED;
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : VM_AMX_UNTESTED;
    return code == VM_AMX_USABLE || code == VM_AMX_REFUSED ? (vm_amx_state)code : VM_AMX_UNTESTED;
}

#else

uint64_t vm_cpu_os_xsave_state(void) { return 0; }

vm_amx_state vm_cpu_amx_probe(int *signal_out) {
    (void)signal_out;
    return VM_AMX_NOT_OFFERED;
}

#endif
