/*--------------------------------------------------------------------*/
/*--- mlgotrace: records the executed instruction sequence as a   ---*/
/*--- compact binary stream.                           mt_main.c  ---*/
/*--------------------------------------------------------------------*/

/*
   This file is part of mlgotrace, a Valgrind tool of mlgo-ra.

   This program is free software; you can redistribute it and/or
   modify it under the terms of the GNU General Public License as
   published by the Free Software Foundation; either version 2 of the
   License, or (at your option) any later version.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   General Public License for more details.

   The stream format is documented in README.md next to this file.
*/

/* How it works.  Guest chasing and loop unrolling are switched off
   (as Callgrind does for chasing), so every superblock is one
   contiguous run of guest instructions that may leave early through
   side exits.  Each exit that leaves after k >= 1 instructions gets a
   global "exit id".  Before each side exit we add a dirty call guarded
   by the exit's own condition, and one unguarded call at the end of
   the superblock, so exactly one call runs per superblock execution.
   Its only argument is the record, varint-encoded at instrumentation
   time, so the helper is a single unaligned 8-byte store into the
   buffer.  Definitions (address, instruction lengths, raw bytes,
   per-exit instruction counts) are written when a superblock is first
   translated; a retranslation with identical content reuses its exit
   ids, one with different content (self-modifying code, dlclose +
   dlopen at the same address) gets fresh ids and a new definition. */

#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_xarray.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_machine.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_aspacemgr.h"

/*------------------------------------------------------------*/
/*--- Stream format constants (see README.md)              ---*/
/*------------------------------------------------------------*/

#define MT_MAGIC "MLGOTRCE"
#define MT_VERSION 2

#define MT_TAG_END 0
#define MT_TAG_MODULE 1
#define MT_TAG_SUPERBLOCK 2
#define MT_TAG_THREAD 3
#define MT_TAG_LOAD 4       /* version 2 */
#define MT_FIRST_RUN_TAG 16 /* tags >= 16 are runs: exit id + 16 */

/* A run record is at most 4 varint bytes, so exit ids stay below
   2^28 - 16.  That is far more exits than any program translates. */
#define MT_MAX_EXIT_ID ((1u << 28) - MT_FIRST_RUN_TAG - 1)

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

static const HChar *clo_out = NULL;
static Int clo_fd = -1;
static Bool clo_loads = False;

static Bool mt_process_cmd_line_option(const HChar *arg)
{
   if VG_STR_CLO(arg, "--mlgotrace-out", clo_out) {}
   else if VG_INT_CLO(arg, "--mlgotrace-fd", clo_fd) {}
   else if VG_BOOL_CLO(arg, "--mlgotrace-loads", clo_loads) {}
   else
      return False;
   return True;
}

static void mt_print_usage(void)
{
   VG_(printf)(
"    --mlgotrace-out=<path>    write the trace stream to <path> (a file or\n"
"                              a FIFO; %%p is the pid, %%q{VAR} an env var)\n"
"    --mlgotrace-fd=<n>        write the trace stream to file descriptor <n>\n"
"    --mlgotrace-loads=no|yes  record per load instruction how often it read\n"
"                              what a recent store wrote [no]\n"
   );
}

static void mt_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

/*------------------------------------------------------------*/
/*--- Output buffer                                        ---*/
/*------------------------------------------------------------*/

#define MT_BUF_SIZE (1 << 20)

/* 8 bytes of slack: the run helper always stores 8 bytes. */
static UChar out_buf[MT_BUF_SIZE + 16];
static UInt out_pos = 0;
static Int out_fd = -1;          /* -1: not writing (fork child, error) */
static Bool out_failed = False;  /* a write failed: the stream is broken */

static ULong total_instrs = 0;   /* instructions in all run records */
static ULong total_runs = 0;     /* run records written */

static void out_flush(void)
{
   UInt done = 0;
   while (out_fd >= 0 && done < out_pos) {
      Int n = VG_(write)(out_fd, out_buf + done, out_pos - done);
      if (n <= 0) {
         VG_(umsg)("mlgotrace: error: writing the trace stream failed "
                   "(%d); the stream is incomplete\n", n);
         out_failed = True;
         out_fd = -1;
         break;
      }
      done += n;
   }
   out_pos = 0;
}

/* Makes room for a record of up to n bytes (n <= MT_BUF_SIZE). */
static void out_reserve(UInt n)
{
   if (out_pos + n > MT_BUF_SIZE)
      out_flush();
}

static void out_varint(ULong v)
{
   while (v >= 0x80) {
      out_buf[out_pos++] = (UChar)(v | 0x80);
      v >>= 7;
   }
   out_buf[out_pos++] = (UChar)v;
}

static void out_bytes(const void *p, UInt n)
{
   VG_(memcpy)(out_buf + out_pos, p, n);
   out_pos += n;
}

/*------------------------------------------------------------*/
/*--- The run helper (called once per superblock execution) --*/
/*------------------------------------------------------------*/

/* packed: bits 0..31 the varint bytes of (exit id + 16), bits 48..55
   the instructions executed, bits 56..63 the varint length. */
static VG_REGPARM(1) void mt_run(ULong packed)
{
   *(ULong *)(out_buf + out_pos) = packed; /* x86: unaligned is fine */
   out_pos += (UInt)(packed >> 56);
   total_instrs += (packed >> 48) & 0xff;
   total_runs++;
   if (UNLIKELY(out_pos >= MT_BUF_SIZE))
      out_flush();
}

static ULong mt_pack_run(UInt exit_id, UInt n_instrs)
{
   ULong v = (ULong)exit_id + MT_FIRST_RUN_TAG;
   ULong packed = 0;
   UInt len = 0;
   while (v >= 0x80) {
      packed |= ((v & 0x7f) | 0x80) << (8 * len++);
      v >>= 7;
   }
   packed |= v << (8 * len++);
   tl_assert(len <= 4 && n_instrs >= 1 && n_instrs <= 255);
   return packed | ((ULong)n_instrs << 48) | ((ULong)len << 56);
}

/*------------------------------------------------------------*/
/*--- Threads                                              ---*/
/*------------------------------------------------------------*/

static ThreadId last_tid = VG_INVALID_THREADID;

static void mt_start_client_code(ThreadId tid, ULong blocks_dispatched)
{
   if (tid == last_tid)
      return;
   last_tid = tid;
   out_reserve(16);
   out_varint(MT_TAG_THREAD);
   out_varint(tid);
}

/*------------------------------------------------------------*/
/*--- Load dependences (--mlgotrace-loads=yes)             ---*/
/*------------------------------------------------------------*/

/* Which loads read what a store still in flight may have written: a
   load "depends" when one of its 8-byte granules was written by one of
   the last MT_STORE_WINDOW stores (a store buffer's worth; a core keeps
   such a load waiting, the others go ahead of unresolved stores).
   Stores are remembered in a direct-mapped table by granule, so a
   granule evicted by a collision is missed: the table is far larger
   than the window. */
#define MT_STORE_WINDOW 64
#define MT_STORE_TABLE_BITS 16
#define MT_MAX_GRANULES 8 /* wider accesses (xsave) count by their start */

typedef struct {
   Addr granule;
   ULong store;   /* the store's number, 1, 2, 3... */
} StoreSlot;

static StoreSlot store_table[1 << MT_STORE_TABLE_BITS];
static ULong stores_seen = 0;

/* One per load instruction (all its loads and translations). */
typedef struct _LoadSite {
   struct _LoadSite *next;
   UWord key;             /* guest address of the instruction */
   ULong executions;      /* its loads executed */
   ULong dependent;       /* of which read a recent store's granule */
} LoadSite;

static VgHashTable *load_sites = NULL;

static inline StoreSlot *store_slot(Addr granule)
{
   return &store_table[(granule * 0x9E3779B97F4A7C15ULL)
                       >> (64 - MT_STORE_TABLE_BITS)];
}

static inline Addr last_granule(Addr a, UWord size)
{
   Addr first = a >> 3, last = (a + (size ? size : 1) - 1) >> 3;
   return last - first >= MT_MAX_GRANULES ? first + MT_MAX_GRANULES - 1 : last;
}

static VG_REGPARM(2) void mt_store(Addr a, UWord size)
{
   Addr g, last = last_granule(a, size);
   stores_seen++;
   for (g = a >> 3; g <= last; g++) {
      StoreSlot *s = store_slot(g);
      s->granule = g;
      s->store = stores_seen;
   }
}

static VG_REGPARM(3) void mt_load(LoadSite *site, Addr a, UWord size)
{
   Addr g, last = last_granule(a, size);
   site->executions++;
   for (g = a >> 3; g <= last; g++) {
      const StoreSlot *s = store_slot(g);
      if (s->store != 0 && s->granule == g
          && stores_seen - s->store < MT_STORE_WINDOW) {
         site->dependent++;
         return;
      }
   }
}

static LoadSite *load_site(Addr instr)
{
   LoadSite *site = VG_(HT_lookup)(load_sites, instr);
   if (site == NULL) {
      site = VG_(malloc)("mt.loadsite", sizeof(LoadSite));
      site->key = instr;
      site->executions = site->dependent = 0;
      VG_(HT_add_node)(load_sites, site);
   }
   return site;
}

static void add_access_call(IRSB *sb, Bool load, Addr instr, IRExpr *addr,
                            UWord size, IRExpr *guard)
{
   IRDirty *di;
   if (load)
      di = unsafeIRDirty_0_N(
         3, "mt_load", VG_(fnptr_to_fnentry)(&mt_load),
         mkIRExprVec_3(mkIRExpr_HWord((HWord)load_site(instr)), addr,
                       mkIRExpr_HWord(size)));
   else
      di = unsafeIRDirty_0_N(
         2, "mt_store", VG_(fnptr_to_fnentry)(&mt_store),
         mkIRExprVec_2(addr, mkIRExpr_HWord(size)));
   if (guard != NULL)
      di->guard = guard;
   addStmtToIRSB(sb, IRStmt_Dirty(di));
}

/* Adds the calls for the memory accesses of st, an instruction's statement
   at instr, before st itself. */
static void add_access_calls(IRSB *sb, const IRStmt *st, Addr instr)
{
   IRTypeEnv *env = sb->tyenv;
   switch (st->tag) {
   case Ist_WrTmp:
      if (st->Ist.WrTmp.data->tag == Iex_Load)
         add_access_call(sb, True, instr, st->Ist.WrTmp.data->Iex.Load.addr,
                         sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty), NULL);
      break;
   case Ist_LoadG: {
      const IRLoadG *lg = st->Ist.LoadG.details;
      IRType wide, loaded;
      typeOfIRLoadGOp(lg->cvt, &wide, &loaded);
      add_access_call(sb, True, instr, lg->addr, sizeofIRType(loaded), lg->guard);
      break;
   }
   case Ist_Store:
      add_access_call(sb, False, instr, st->Ist.Store.addr,
                      sizeofIRType(typeOfIRExpr(env, st->Ist.Store.data)), NULL);
      break;
   case Ist_StoreG: {
      const IRStoreG *sg = st->Ist.StoreG.details;
      add_access_call(sb, False, instr, sg->addr,
                      sizeofIRType(typeOfIRExpr(env, sg->data)), sg->guard);
      break;
   }
   case Ist_CAS: {
      const IRCAS *cas = st->Ist.CAS.details;
      UWord size = sizeofIRType(typeOfIRExpr(env, cas->dataLo))
                   * (cas->dataHi != NULL ? 2 : 1);
      add_access_call(sb, True, instr, cas->addr, size, NULL);
      add_access_call(sb, False, instr, cas->addr, size, NULL);
      break;
   }
   case Ist_LLSC: {
      IRType ty = typeOfIRTemp(env, st->Ist.LLSC.result);
      if (st->Ist.LLSC.storedata == NULL)
         add_access_call(sb, True, instr, st->Ist.LLSC.addr, sizeofIRType(ty), NULL);
      else
         add_access_call(sb, False, instr, st->Ist.LLSC.addr,
                         sizeofIRType(typeOfIRExpr(env, st->Ist.LLSC.storedata)),
                         NULL);
      break;
   }
   case Ist_Dirty: {
      const IRDirty *d = st->Ist.Dirty.details;
      if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
         add_access_call(sb, True, instr, d->mAddr, d->mSize, d->guard);
      if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
         add_access_call(sb, False, instr, d->mAddr, d->mSize, d->guard);
      break;
   }
   default:
      break;
   }
}

static void write_load_sites(void)
{
   LoadSite *site;
   VG_(HT_ResetIter)(load_sites);
   while ((site = VG_(HT_Next)(load_sites)) != NULL) {
      if (site->executions == 0)
         continue;
      out_reserve(48);
      out_varint(MT_TAG_LOAD);
      out_varint(site->key);
      out_varint(site->executions);
      out_varint(site->dependent);
   }
}

/*------------------------------------------------------------*/
/*--- Modules                                              ---*/
/*------------------------------------------------------------*/

typedef struct {
   const DebugInfo *di;    /* identity hint; checked with the fields below */
   Addr text_avma;
   SizeT text_size;
   HChar *filename;
   UInt id;
} Module;

static XArray *modules = NULL; /* of Module */
static Word last_module = -1;
static Bool have_exe_stat = False;
static struct vg_stat exe_stat;

static Bool is_main_executable(const HChar *filename)
{
   struct vg_stat st;
   SysRes r;
   if (!have_exe_stat)
      return False;
   r = VG_(stat)(filename, &st);
   return !sr_isError(r) && st.dev == exe_stat.dev && st.ino == exe_stat.ino;
}

static Bool module_matches(const Module *m, const DebugInfo *di,
                           const HChar *filename)
{
   return m->di == di && m->text_avma == VG_(DebugInfo_get_text_avma)(di)
          && m->text_size == VG_(DebugInfo_get_text_size)(di)
          && VG_(strcmp)(m->filename, filename) == 0;
}

/* The DebugInfo of the object mapped at addr.  VG_(find_DebugInfo) only
   knows .text, so code in .plt, .plt.sec, .init or .fini is found through
   the file of the mapping instead (one DebugInfo per mapped file). */
static const DebugInfo *debuginfo_of(Addr addr)
{
   const DebugInfo *di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), addr);
   NSegment const *seg;
   const HChar *file;
   if (di != NULL)
      return di;
   seg = VG_(am_find_nsegment)(addr);
   file = seg != NULL ? VG_(am_get_filename)(seg) : NULL;
   if (file == NULL)
      return NULL;
   for (di = VG_(next_DebugInfo)(NULL); di != NULL; di = VG_(next_DebugInfo)(di)) {
      const HChar *f = VG_(DebugInfo_get_filename)(di);
      if (f != NULL && VG_(strcmp)(f, file) == 0)
         return di;
   }
   return NULL;
}

/* Returns the module id of the object holding addr (0 = none), writing
   a module record the first time the object is seen. */
static UInt module_of(Addr addr)
{
   const DebugInfo *di = debuginfo_of(addr);
   const HChar *filename;
   Module m;
   Word i, n;
   UInt len;
   if (di == NULL)
      return 0;
   filename = VG_(DebugInfo_get_filename)(di);
   if (filename == NULL)
      filename = "";
   if (last_module >= 0) {
      Module *lm = VG_(indexXA)(modules, last_module);
      if (module_matches(lm, di, filename))
         return lm->id;
   }
   n = VG_(sizeXA)(modules);
   for (i = n - 1; i >= 0; i--) {
      Module *om = VG_(indexXA)(modules, i);
      if (module_matches(om, di, filename)) {
         last_module = i;
         return om->id;
      }
   }
   m.di = di;
   m.text_avma = VG_(DebugInfo_get_text_avma)(di);
   m.text_size = VG_(DebugInfo_get_text_size)(di);
   m.filename = VG_(strdup)("mt.module", filename);
   m.id = (UInt)n + 1;
   last_module = VG_(addToXA)(modules, &m);

   len = VG_(strlen)(filename);
   if (len > 4096)
      len = 4096;
   out_reserve(64 + len);
   out_varint(MT_TAG_MODULE);
   out_varint(m.id);
   out_buf[out_pos++] = is_main_executable(filename) ? 1 : 0;
   out_varint(m.text_avma);
   out_varint(m.text_size);
   {
      Long bias = (Long)VG_(DebugInfo_get_text_bias)(di);
      out_varint(((ULong)bias << 1) ^ (ULong)(bias >> 63)); /* zigzag */
   }
   out_varint(len);
   out_bytes(filename, len);
   return m.id;
}

/*------------------------------------------------------------*/
/*--- Superblock definitions                               ---*/
/*------------------------------------------------------------*/

/* The definition body, everything after the exit id: address, module,
   instruction count, lengths, bytes, exits.  Kept per address so a
   retranslation can be compared byte for byte. */
typedef struct _SBNode {
   struct _SBNode *next;
   UWord key;             /* guest address of the first instruction */
   UInt first_exit_id;
   UInt body_len;
   UChar *body;
} SBNode;

static VgHashTable *sb_table = NULL;
static UInt next_exit_id = 0;
static ULong n_definitions = 0;
static ULong n_reused = 0; /* retranslations that matched their definition */

#define MT_MAX_INSTRS 255 /* VEX stops at 100 (--vex-guest-max-insns) */
#define MT_MAX_EXITS 256

/* 10 + 5 + 5 + MAX_INSTRS * (1 + 16) + 5 + MAX_EXITS */
static UChar body_buf[8192];

static UInt put_varint(UChar *p, ULong v)
{
   UInt n = 0;
   while (v >= 0x80) {
      p[n++] = (UChar)(v | 0x80);
      v >>= 7;
   }
   p[n++] = (UChar)v;
   return n;
}

/* Returns the exit id of the superblock's first exit, writing a
   definition record when needed. */
static UInt define_superblock(Addr addr, const UChar *lens, UInt n_instrs,
                              const UChar *exit_counts, UInt n_exits)
{
   UInt body_len = 0, code_len = 0, i;
   SBNode *node;

   for (i = 0; i < n_instrs; i++)
      code_len += lens[i];
   tl_assert(code_len <= MT_MAX_INSTRS * 16);

   body_len += put_varint(body_buf + body_len, addr);
   body_len += put_varint(body_buf + body_len, module_of(addr));
   body_len += put_varint(body_buf + body_len, n_instrs);
   VG_(memcpy)(body_buf + body_len, lens, n_instrs);
   body_len += n_instrs;
   VG_(memcpy)(body_buf + body_len, (const void *)addr, code_len);
   body_len += code_len;
   body_len += put_varint(body_buf + body_len, n_exits);
   VG_(memcpy)(body_buf + body_len, exit_counts, n_exits);
   body_len += n_exits;

   node = VG_(HT_lookup)(sb_table, addr);
   if (node != NULL && node->body_len == body_len
       && VG_(memcmp)(node->body, body_buf, body_len) == 0) {
      n_reused++;
      return node->first_exit_id;
   }

   if (node == NULL) {
      node = VG_(malloc)("mt.sbnode", sizeof(SBNode));
      node->key = addr;
      node->body = NULL;
      VG_(HT_add_node)(sb_table, node);
   } else {
      VG_(free)(node->body);
   }
   node->first_exit_id = next_exit_id;
   node->body_len = body_len;
   node->body = VG_(malloc)("mt.sbbody", body_len);
   VG_(memcpy)(node->body, body_buf, body_len);

   if (next_exit_id + n_exits > MT_MAX_EXIT_ID)
      VG_(tool_panic)("mlgotrace: too many superblock exits");
   next_exit_id += n_exits;
   n_definitions++;

   out_reserve(16 + body_len);
   out_varint(MT_TAG_SUPERBLOCK);
   out_varint(node->first_exit_id);
   out_bytes(body_buf, body_len);
   return node->first_exit_id;
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

static void add_run_call(IRSB *sb, UInt exit_id, UInt n_instrs, IRExpr *guard)
{
   IRDirty *di = unsafeIRDirty_0_N(
      1, "mt_run", VG_(fnptr_to_fnentry)(&mt_run),
      mkIRExprVec_1(IRExpr_Const(IRConst_U64(mt_pack_run(exit_id, n_instrs)))));
   if (guard != NULL)
      di->guard = guard;
   addStmtToIRSB(sb, IRStmt_Dirty(di));
}

static IRSB *mt_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                           const VexGuestLayout *layout,
                           const VexGuestExtents *vge,
                           const VexArchInfo *archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   UChar lens[MT_MAX_INSTRS];
   UChar exit_counts[MT_MAX_EXITS];
   UInt n_instrs = 0, n_exits = 0, first_exit_id, i, exit_no;
   Addr first_addr = 0, next_addr = 0, instr_addr = 0;
   IRSB *sb_out;

   if (gWordTy != hWordTy)
      VG_(tool_panic)("host/guest word size mismatch");

   /* Pass 1: the instructions and the exits that leave after >= 1 of
      them (a self-check exit before the first IMark runs none). */
   for (i = 0; i < (UInt)sb_in->stmts_used; i++) {
      const IRStmt *st = sb_in->stmts[i];
      if (st->tag == Ist_IMark) {
         Addr a = (Addr)st->Ist.IMark.addr;
         if (n_instrs == 0)
            first_addr = a;
         else if (a != next_addr) {
            VG_(fmsg)("mlgotrace: superblock at %#lx is not contiguous "
                      "(instruction at %#lx, expected %#lx); guest chasing "
                      "or loop unrolling is on\n", first_addr, a, next_addr);
            VG_(exit)(1);
         }
         tl_assert(n_instrs < MT_MAX_INSTRS);
         lens[n_instrs++] = (UChar)st->Ist.IMark.len;
         next_addr = a + st->Ist.IMark.len;
      } else if (st->tag == Ist_Exit && n_instrs > 0) {
         tl_assert(n_exits < MT_MAX_EXITS - 1);
         exit_counts[n_exits++] = (UChar)n_instrs;
      }
   }
   if (n_instrs == 0)
      return sb_in;
   exit_counts[n_exits++] = (UChar)n_instrs; /* the final exit */

   first_exit_id = define_superblock(first_addr, lens, n_instrs,
                                     exit_counts, n_exits);

   /* Pass 2: copy, adding one guarded call before each counted exit
      and an unguarded one at the end. */
   sb_out = deepCopyIRSBExceptStmts(sb_in);
   n_instrs = 0;
   exit_no = 0;
   for (i = 0; i < (UInt)sb_in->stmts_used; i++) {
      IRStmt *st = sb_in->stmts[i];
      if (st->tag == Ist_IMark) {
         n_instrs++;
         instr_addr = (Addr)st->Ist.IMark.addr;
      } else if (clo_loads && n_instrs > 0)
         add_access_calls(sb_out, st, instr_addr);
      if (st->tag == Ist_Exit && n_instrs > 0) {
         add_run_call(sb_out, first_exit_id + exit_no, n_instrs,
                      st->Ist.Exit.guard);
         exit_no++;
      }
      addStmtToIRSB(sb_out, st);
   }
   add_run_call(sb_out, first_exit_id + exit_no, n_instrs, NULL);
   tl_assert(exit_no + 1 == n_exits);
   return sb_out;
}

/*------------------------------------------------------------*/
/*--- Setup and teardown                                   ---*/
/*------------------------------------------------------------*/

static void mt_atfork_child(ThreadId tid)
{
   /* The child would interleave its records with the parent's in the
      same stream: stop tracing it (its buffered copy is dropped). */
   if (out_fd >= 0)
      VG_(close)(out_fd);
   out_fd = -1;
   out_pos = 0;
}

static void write_header(void)
{
   UInt version = MT_VERSION, pid = (UInt)VG_(getpid)();
   out_bytes(MT_MAGIC, 8);
   out_bytes(&version, 4); /* amd64: already little-endian */
   out_bytes(&pid, 4);
}

static void mt_post_clo_init(void)
{
   SysRes r;
   if (clo_out != NULL && clo_fd >= 0) {
      VG_(fmsg)("mlgotrace: give only one of --mlgotrace-out and "
                "--mlgotrace-fd\n");
      VG_(exit)(1);
   }
   if (clo_out != NULL) {
      HChar *path = VG_(expand_file_name)("--mlgotrace-out", clo_out);
      r = VG_(open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_TRUNC, 0644);
      if (sr_isError(r)) {
         VG_(fmsg)("mlgotrace: cannot open '%s' for writing\n", path);
         VG_(exit)(1);
      }
      out_fd = sr_Res(r);
      VG_(free)(path);
   } else if (clo_fd >= 0) {
      struct vg_stat st;
      if (VG_(fstat)(clo_fd, &st) != 0) {
         VG_(fmsg)("mlgotrace: --mlgotrace-fd=%d is not an open file "
                   "descriptor\n", clo_fd);
         VG_(exit)(1);
      }
      out_fd = clo_fd;
   } else {
      VG_(fmsg)("mlgotrace: needs --mlgotrace-out=<path> or "
                "--mlgotrace-fd=<n>\n");
      VG_(exit)(1);
   }

   /* Every superblock must be one contiguous run (see the top). */
   VG_(clo_vex_control).guest_chase = False;
   VG_(clo_vex_control).iropt_unroll_thresh = 0;

   {
      struct vg_stat st;
      r = VG_(stat)(VG_(args_the_exename), &st);
      if (!sr_isError(r)) {
         exe_stat = st;
         have_exe_stat = True;
      }
   }

   modules = VG_(newXA)(VG_(malloc), "mt.modules", VG_(free), sizeof(Module));
   sb_table = VG_(HT_construct)("mt.superblocks");
   load_sites = VG_(HT_construct)("mt.loadsites");
   write_header();
}

static void mt_fini(Int exitcode)
{
   if (out_fd < 0) {
      if (out_failed)
         VG_(umsg)("mlgotrace: the trace stream is incomplete\n");
      return;
   }
   if (clo_loads)
      write_load_sites();
   out_reserve(32);
   out_varint(MT_TAG_END);
   out_varint(total_instrs);
   out_varint(total_runs);
   out_flush();
   if (clo_out != NULL && out_fd >= 0)
      VG_(close)(out_fd);
   if (VG_(clo_verbosity) > 1)
      VG_(umsg)("mlgotrace: %llu instructions, %llu runs, %llu superblock "
                "definitions, %llu retranslations reused, %lu modules\n",
                total_instrs, total_runs, n_definitions, n_reused,
                VG_(sizeXA)(modules));
}

static void mt_pre_clo_init(void)
{
   VG_(details_name)("mlgotrace");
   VG_(details_version)(NULL);
   VG_(details_description)("an instruction trace recorder for mlgo-ra");
   VG_(details_copyright_author)(
      "Copyright (C) the mlgo-ra authors; GPL-2.0-or-later.");
   VG_(details_bug_reports_to)(VG_BUGS_TO);
   VG_(details_avg_translation_sizeB)(200);

   VG_(basic_tool_funcs)(mt_post_clo_init, mt_instrument, mt_fini);
   VG_(needs_command_line_options)(mt_process_cmd_line_option,
                                   mt_print_usage, mt_print_debug_usage);
   VG_(track_start_client_code)(mt_start_client_code);
   VG_(atfork)(NULL, NULL, mt_atfork_child);
}

VG_DETERMINE_INTERFACE_VERSION(mt_pre_clo_init)

/*--------------------------------------------------------------------*/
/*--- end                                                mt_main.c ---*/
/*--------------------------------------------------------------------*/
