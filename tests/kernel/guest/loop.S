/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop.S - "loop N": N passes through a loop of exactly 8 instructions,
 * then exit(0).  No C library: from the first instruction to the exit
 * system call the program executes 8N + c user-space instructions, c a
 * small constant that depends only on the number of digits of N, so
 * counts of instructions (and, under QEMU's -icount, cycles) have an
 * exact ground truth.  The loop is the function "loop", for checks that
 * sampled IPs fall inside it.  Built with -nostdlib -static.
 *
 * "loop N wait": first a read() of one byte from standard input, so that
 * a counter opened on the waiting process (-p) counts 8N + a constant
 * from the read's return on: give it a FIFO opened read-write (0<>FIFO,
 * which does not block) and write to the FIFO to start the loop.
 */
	.text
	.globl	_start
#if defined(__aarch64__)
_start:
	ldr	x1, [sp, #16]		/* argv[1] */
	mov	x0, #0
	cbz	x1, 2f
1:	ldrb	w2, [x1], #1		/* N = decimal argv[1] */
	cbz	w2, 2f
	sub	w2, w2, #'0'
	mov	x3, #10
	madd	x0, x0, x3, x2
	b	1b
2:	ldr	x12, [sp]		/* argc */
	cmp	x12, #3
	b.lt	4f
	mov	x13, x0			/* "wait": read(0, sp - 16, 1) */
	sub	sp, sp, #16
	mov	x0, #0
	mov	x1, sp
	mov	x2, #1
	mov	x8, #63			/* read */
	svc	#0
	add	sp, sp, #16
	mov	x0, x13
4:	cbz	x0, 3f
	bl	loop
3:	mov	x0, #0
	mov	x8, #93			/* exit */
	svc	#0

	.globl	loop
	.type	loop, %function
loop:
	add	x4, x4, #1
	add	x5, x5, #2
	eor	x6, x6, x4
	add	x7, x7, x5
	orr	x9, x9, x6
	sub	x10, x10, #1
	subs	x0, x0, #1
	b.ne	loop
	ret
	.size	loop, . - loop
#elif defined(__x86_64__)
_start:
	mov	16(%rsp), %rsi		/* argv[1] */
	xor	%eax, %eax
	test	%rsi, %rsi
	jz	2f
1:	movzbl	(%rsi), %edx		/* N = decimal argv[1] */
	test	%edx, %edx
	jz	2f
	inc	%rsi
	sub	$'0', %edx
	imul	$10, %rax, %rax
	add	%rdx, %rax
	jmp	1b
2:	cmpq	$3, (%rsp)		/* argc */
	jl	4f
	mov	%rax, %rbx		/* "wait": read(0, rsp - 16, 1) */
	sub	$16, %rsp
	xor	%edi, %edi
	mov	%rsp, %rsi
	mov	$1, %edx
	xor	%eax, %eax		/* read */
	syscall
	add	$16, %rsp
	mov	%rbx, %rax
4:	test	%rax, %rax
	jz	3f
	call	loop
3:	xor	%edi, %edi
	mov	$60, %eax		/* exit */
	syscall

	.globl	loop
	.type	loop, @function
loop:
	add	$1, %rcx
	add	$2, %r8
	xor	%rcx, %r9
	add	%r8, %r10
	or	%r9, %r11
	sub	$1, %r12
	sub	$1, %rax
	jnz	loop
	ret
	.size	loop, . - loop
#else
#error "loop.S: no loop for this architecture"
#endif
	.section .note.GNU-stack, "", %progbits
