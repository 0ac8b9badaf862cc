/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the kernel types and helpers that the shared engine
 * (include/fsload/engine.h, engine-loop.h, engine-job.h) uses, for
 * compiling it unchanged in userspace (the user engine, ctl/engine/u*.c, and
 * the op table's readers).  Include it before engine.h.
 *
 * Only what the shared engine needs: anything more here would let the
 * two engines drift apart without the compiler noticing.
 */
#ifndef FSLOADCTL_KSHIM_H
#define FSLOADCTL_KSHIM_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <linux/fsload.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;

#ifndef U32_MAX
#define U32_MAX		UINT32_MAX
#endif

#ifndef U64_MAX
#define U64_MAX		UINT64_MAX
#endif

#ifndef BIT
#define BIT(nr)		(1UL << (nr))
#endif

/* Position of the most significant bit set, 1..64; 0 for 0. */
static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* Its index, 0..63: fls64() - 1, undefined for 0, as the kernel's. */
static inline unsigned long __fls(unsigned long x)
{
	return 63 - __builtin_clzl(x);
}

#ifndef __stringify
#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)
#endif

#ifndef ARRAY_SIZE
/* The kernel's check_mul_overflow(): true when *@d is not @a x @b. */
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

/* The high bits of a 128-bit product, as the kernel's (math64.h). */
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * b) >> shift);
}

/* a x b / c, of the 128-bit product, as the kernel's (math64.h). */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((unsigned __int128)a * b / c);
}

/* As the kernel's: both arguments of one type, each evaluated once. */
#define min(x, y) ({				\
	__typeof__(x) _min1 = (x);		\
	__typeof__(y) _min2 = (y);		\
	(void)(&_min1 == &_min2);		\
	_min1 < _min2 ? _min1 : _min2; })

#define min_t(type, x, y) min((type)(x), (type)(y))

#define max(x, y) ({				\
	__typeof__(x) _max1 = (x);		\
	__typeof__(y) _max2 = (y);		\
	(void)(&_max1 == &_max2);		\
	_max1 > _max2 ? _max1 : _max2; })

/*
 * One access the compiler may neither tear, merge nor repeat: progress
 * counters written by a worker thread and read by the main thread.
 */
#ifndef noinline
#define noinline		__attribute__((__noinline__))
#endif
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#ifndef __maybe_unused
#define __maybe_unused		__attribute__((__unused__))
#endif
#ifndef likely
/* The kernel's (compiler.h): @var is opaque, held in a register. */
#define OPTIMIZER_HIDE_VAR(var)	__asm__ ("" : "=r" (var) : "0" (var))
#define likely(x)		__builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x)		__builtin_expect(!!(x), 0)
#endif

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	(*(volatile __typeof__(x) *)&(x) = (val))

#endif /* FSLOADCTL_KSHIM_H */
