/*
 * The mstx annotation API (compatible with MindStudio's ms_tools_ext.h) and
 * the protocol a profiler uses to attach to it.
 *
 * A program marks ranges and points in its run; without a profiler every call
 * does nothing and costs a few nanoseconds. A profiler attaches by exporting
 * InitInjectionMstx from a library named in MSTX_INJECTION_PATH (or loaded
 * into the process already) and filling in the function slots it handles.
 */
#ifndef MS_TOOLS_EXT_H_
#define MS_TOOLS_EXT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Client API -------------------------------------------------------- */

typedef uint64_t mstxRangeId; /* 0 = no range (failure) */
typedef void* aclrtStream;    /* NULL = host-side event only */
typedef struct mstxDomainRegistration_st* mstxDomainHandle_t;

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

/* Messages longer than this many bytes are cut. */
#define MSTX_MESSAGE_MAX_BYTES 255

/* Values mstxGetToolId reports. */
#define MSTX_TOOL_INVALID_ID 0x0u
#define MSTX_TOOL_MSPROF_ID 0x1000u
#define MSTX_TOOL_MSOPPROF_ID 0x1001u
#define MSTX_TOOL_MSSANITIZER_ID 0x1002u
#define MSTX_TOOL_MSLEAKS_ID 0x1003u

void mstxMarkA(const char* message, aclrtStream stream);
mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream);
void mstxRangeEnd(mstxRangeId id);

mstxDomainHandle_t mstxDomainCreateA(const char* name);
void mstxDomainDestroy(mstxDomainHandle_t domain);
void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, aclrtStream stream);
mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message,
                                  aclrtStream stream);
void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);

/* Writes the attached tool's id, MSTX_TOOL_INVALID_ID without a tool. */
void mstxGetToolId(uint64_t* id);

/* ---- Injection protocol ------------------------------------------------ */

/* Function modules a tool can ask a table for. */
typedef enum mstxFuncModule {
  MSTX_API_MODULE_INVALID = 0,
  MSTX_API_MODULE_CORE = 1,
  MSTX_API_MODULE_CORE_DOMAIN = 2,
  MSTX_API_MODULE_CORE_MEM = 3,
  MSTX_API_MODULE_SIZE
} mstxFuncModule;

/* Slots of MSTX_API_MODULE_CORE. */
typedef enum mstxImplCoreFuncId {
  MSTX_API_CORE_INVALID = 0,
  MSTX_API_CORE_MARK_A = 1,
  MSTX_API_CORE_RANGE_START_A = 2,
  MSTX_API_CORE_RANGE_END = 3,
  MSTX_API_CORE_GET_TOOL_ID = 4,
  MSTX_API_CORE_FUNC_ID_SIZE /* one past the last slot */
} mstxImplCoreFuncId;

/* Slots of MSTX_API_MODULE_CORE_DOMAIN. */
typedef enum mstxImplCoreDomainFuncId {
  MSTX_API_CORE2_INVALID = 0,
  MSTX_API_CORE2_DOMAIN_CREATE_A = 1,
  MSTX_API_CORE2_DOMAIN_DESTROY = 2,
  MSTX_API_CORE2_DOMAIN_MARK_A = 3,
  MSTX_API_CORE2_DOMAIN_RANGE_START_A = 4,
  MSTX_API_CORE2_DOMAIN_RANGE_END = 5,
  MSTX_API_CORE2_FUNC_ID_SIZE
} mstxImplCoreDomainFuncId;

/* Slots of MSTX_API_MODULE_CORE_MEM (memory-region reporting; this library
 * hands out the table but exposes no memory functions itself). */
typedef enum mstxImplCoreMemFuncId {
  MSTX_API_CORE_MEM_INVALID = 0,
  MSTX_API_CORE_MEM_HEAP_REGISTER = 1,
  MSTX_API_CORE_MEM_HEAP_UNREGISTER = 2,
  MSTX_API_CORE_MEM_REGIONS_REGISTER = 3,
  MSTX_API_CORE_MEM_REGIONS_UNREGISTER = 4,
  MSTX_API_CORE_MEM_FUNC_ID_SIZE
} mstxImplCoreMemFuncId;

/* A slot holds one of these, cast from the slot's real function type. */
typedef void (*mstxFuncPointer)(void);
/* table[i] points at the client's slot i; entry 0 is unused. */
typedef mstxFuncPointer** mstxFuncTable;
/* Hands out the table of `module` and the number of its slots (1..*outSize
 * are valid). Returns MSTX_SUCCESS, or MSTX_FAIL for an unknown module. */
typedef int (*mstxGetModuleFuncTableFunc)(int module, mstxFuncTable* outTable,
                                          unsigned int* outSize);
/* The tool's entry point, exported as InitInjectionMstx; 0 = attached. */
typedef int (*mstxInitInjectionFunc)(mstxGetModuleFuncTableFunc getFuncTable);

/* The real types of the slots. */
typedef void (*mstxMarkAFunc)(const char* message, aclrtStream stream);
typedef mstxRangeId (*mstxRangeStartAFunc)(const char* message, aclrtStream stream);
typedef void (*mstxRangeEndFunc)(mstxRangeId id);
typedef void (*mstxGetToolIdFunc)(uint64_t* id);
typedef mstxDomainHandle_t (*mstxDomainCreateAFunc)(const char* name);
typedef void (*mstxDomainDestroyFunc)(mstxDomainHandle_t domain);
typedef void (*mstxDomainMarkAFunc)(mstxDomainHandle_t domain, const char* message,
                                    aclrtStream stream);
typedef mstxRangeId (*mstxDomainRangeStartAFunc)(mstxDomainHandle_t domain, const char* message,
                                                 aclrtStream stream);
typedef void (*mstxDomainRangeEndFunc)(mstxDomainHandle_t domain, mstxRangeId id);

#define MSTX_INJECTION_PATH_ENV "MSTX_INJECTION_PATH"
#define MSTX_INJECTION_ENTRY_NAME "InitInjectionMstx"

#ifdef __cplusplus
}
#endif

#endif /* MS_TOOLS_EXT_H_ */
