// What this processor and the kernel let a process run, asked the processor itself (CPUID,
// XGETBV) and the kernel (arch_prctl): the register state the OS saves, and whether AMX tile
// instructions really run. VaultMailAI reads it to choose llama.cpp's CPU code (issue 27).
#ifndef VAULTMAIL_CPU_STATE_H
#define VAULTMAIL_CPU_STATE_H

#include <stdint.h>

/// XCR0, the extended register state the operating system saves and restores (bit 1 SSE,
/// 2 AVX, 5-7 AVX-512, 17-18 AMX tiles), or 0 when the OS has not enabled XSAVE (CPUID.1:ECX
/// OSXSAVE clear) or the processor is not x86-64.
uint64_t vm_cpu_os_xsave_state(void);

/// What a run of AMX tile instructions gave.
typedef enum {
    VM_AMX_USABLE = 0,          ///< LDTILECFG, TILEZERO and TILERELEASE ran in a child process.
    VM_AMX_NOT_OFFERED = 1,     ///< The kernel offers no tile data state (ARCH_GET_XCOMP_SUPP).
    VM_AMX_REFUSED = 2,         ///< The kernel refused the permission (ARCH_REQ_XCOMP_PERM).
    VM_AMX_FAULTED = 3,         ///< Permission granted, yet a tile instruction killed the child.
    VM_AMX_UNTESTED = 4,        ///< No child process could be started to try.
} vm_amx_state;

/// Tries AMX in a child process, so that a fault costs the child and not the caller. The
/// child asks the kernel for the tile data permission and runs three tile instructions.
/// `signal_out`, when not NULL, receives the signal that ended the child (for VM_AMX_FAULTED).
vm_amx_state vm_cpu_amx_probe(int *signal_out);

/// The path of the shared library that holds `address` (dladdr), or NULL. VaultMailAI finds
/// llama.cpp's CPU variants beside the library it linked.
const char *vm_library_path_of(const void *address);

#endif
