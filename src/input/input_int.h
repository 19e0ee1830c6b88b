/* SPDX-License-Identifier: MIT */
/*
 * Private pieces of the input module: documents in flight (fsc_item), the ordered
 * parse pipeline, the walker that feeds it, archive reading and the progress line.
 */
#ifndef FSC_INPUT_INT_H
#define FSC_INPUT_INT_H

#include "fioscope/input.h"
#include "fioscope/logs.h"

#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

/* Defaults of the decompression-bomb limits. */
#define FSC_DEFAULT_MAX_MEMBER ((uint64_t)1 << 30) /* 1 GiB per member */
#define FSC_DEFAULT_MAX_RATIO 1000u
/* Default memory budget of one document (a file, a piece of a huge file, a member). */
#define FSC_DEFAULT_MAX_MEMORY ((uint64_t)1 << 30)
/* Members smaller than this are never judged by their ratio (read-ahead makes the
 * compressed size of a small member unmeasurable). */
#define FSC_RATIO_FLOOR ((uint64_t)1 << 20)
/* Regular text files larger than FSC_PIECE_MIN are read and parsed in pieces of
 * about FSC_PIECE_BYTES: just under glibc's mmap threshold (1 MiB, see main.c), so
 * that a piece's buffer comes from the heap and is reused by the next piece instead
 * of being mapped, faulted in page by page and unmapped per piece (200 MB of text:
 * 126k page faults -> 26k, and half the memory in flight). Where no run starts, a
 * piece grows by FSC_PIECE_STEP at a time; after 2 steps it may end at a blank
 * line before a job, after 4 at the blank lines after a report, after 8 (doubling
 * from 4) at any line end (fio logs, which have no runs, are cut in pieces of one
 * step). */
#define FSC_PIECE_BYTES ((size_t)960 << 10)
#define FSC_PIECE_STEP ((size_t)4 << 20)
/* Documents in flight (read, parsed or waiting to be delivered) hold at most this
 * many bytes of text together; a single larger document still goes through alone. */
#define FSC_WINDOW_BYTES ((size_t)12 << 20)
/* Read whole up to this size: a text read whole costs its size and more in memory (a
 * 63 MB file peaked at 75-78 MB with 64 MiB here), while pieces stay flat (14-16 MB
 * for it, and faster). Whole reading sees the whole document at once (its encoding, its
 * prefixes, the width of its lines; the headings and command above a run cross the
 * cuts of pieces too, see fsc_carry): 24 MiB keeps the peak under 64 MB (terse read
 * whole at -j 2: 50 MB) and leaves whole the documents that have headings, articles
 * and mails of a few MB at most. */
#define FSC_PIECE_MIN ((size_t)24 << 20)
/* A text that holds fio JSON (fsc_text_holds_json) goes in pieces from this size: read
 * whole, its JSON runs wait in memory for the end of the text, at 4.6 times its size
 * for fio JSON below a line of text and 6.5 times for JSON Lines (fioscope's own
 * --jsonl read again: 22 MB peaked at 143 MB), against 3 times for fio's normal text.
 * 8 MiB keeps them near 50 MB. In pieces they take 16-20 MB and 2 to 4 times less CPU
 * (20 MB of fio JSON after a "fio:" line: 0.24 CPU-s whole, 0.13 s for 40 MB in
 * pieces). */
#define FSC_JSON_PIECE_MIN ((size_t)8 << 20)
/* From this much text, a document or piece is worth huge pages for the heap it fills
 * (fsc_hugemem_advise_heap: the look at the process's mappings that takes costs more
 * than the page faults of a small file). */
#define FSC_HUGE_HEAP_TEXT ((size_t)256 << 10)
/* A thread took a text of len bytes: fsc_hugemem_advise_heap for a big one, and once
 * per FSC_HUGE_HEAP_TEXT of small ones (a folder or an archive of 64 KiB files fills
 * the heap as much as a big text does, and it grew 4 KiB at a time: in a VM, 15% of
 * the CPU of a .tar.zst of them went to those page faults). */
void fsc_heap_text_seen(size_t len);
/* Bytes read before deciding text or archive: a tar header's "ustar" sits at 257. A
 * gzip header must be whole within them for ISA-L to take the stream (gunzip.h). */
#define SNIFF_BYTES 512
/* Bytes read before deciding text or binary: what fsc_looks_binary looks at. 512
 * bytes are too few: random data (fio's default buffers) has no NUL in them one time
 * in seven, and then too few control bytes one time in two or three. */
#define LOOK_BYTES ((size_t)65536)
/* Archives inside archives are opened up to this depth (1 = a plain archive). */
#define FSC_MAX_ARCHIVE_DEPTH 8

/* A huge regular file whose pieces the parse workers read themselves (see
 * read_ranges in pieces.c): the reading thread only looks at a little text near each
 * cut, so that the copy of the text out of the page cache (the reading thread's
 * largest cost) is shared by the workers. Each worker counts the lines of its piece;
 * the pieces take their first line numbers from it in file order (fsc_pipe's
 * worker), as every piece's line numbers are needed before it is parsed. */
typedef struct fsc_piece_file {
    int fd;              /* a dup of the file's descriptor, read with pread */
    unsigned refs;       /* the reader and each piece not yet read; atomic */
    size_t submitted;    /* pieces submitted (reading thread only) */
    bool closed;         /* the last of them is submitted (reading thread only) */
    size_t next;         /* the piece whose first line is known next (pipe lock) */
    uint32_t line;       /* and that line (pipe lock) */
    uint64_t end;        /* where the pieces before it end in the file (pipe lock) */
    bool checked;        /* the text is FSC_TEXT_NORMAL whole (fsc_doc.checked); set before its
                          * first piece is submitted */
} fsc_piece_file;

/* A new record for fd (dup'ed; -1: its pieces all come with their text), held
 * once by the caller. NULL with errno set. */
fsc_piece_file *fsc_piece_file_new(int fd);
/* Hold pf once more (for a piece). */
void fsc_piece_file_hold(fsc_piece_file *pf);
/* Let go of pf once: the last one closes the descriptor. NULL is fine. */
void fsc_piece_file_release(fsc_piece_file *pf);

/* The pieces of one file hand their carry (what their text leaves to the runs below
 * it, fsc_carry) on to the next piece in file order (relay.c). */
typedef struct fsc_piece_relay fsc_piece_relay;
/* A new relay, held once by the caller. NULL when out of memory. */
fsc_piece_relay *fsc_relay_new(void);
/* Hold r for the next piece submitted (reading thread); returns that piece's index. */
size_t fsc_relay_hold(fsc_piece_relay *r);
/* Let go of r once. NULL is fine. */
void fsc_relay_release(fsc_piece_relay *r);
/* Piece `index`'s carry from the piece before it, once given (waits for that); the
 * caller owns it. NULL: none, or the relay broke. Then piece `index` must give. */
fsc_carry *fsc_relay_take(fsc_piece_relay *r, size_t index);
/* After its take, a piece's carry for the next one (ownership passes; NULL: none). */
void fsc_relay_give(fsc_piece_relay *r, fsc_carry *end);
/* A piece goes without giving (never parsed): the pieces after it wait no more. */
void fsc_relay_break(fsc_piece_relay *r);

/* One document (a file or an archive member) on its way to the sink. */
typedef struct fsc_item {
    char *path;
    char *member;        /* NULL for a plain file */
    char *data;          /* the bytes; freed once parsed, unless kept to parse again
                          * (see claims) */
    size_t len;          /* bytes of text, kept for progress after data is freed */
    bool fixed;          /* status/error decided by the reader: nothing to parse */
    fsc_input_status status;
    char *error;         /* reason (error) or detail (no-runs); owned */
    /* results of parsing, filled by a worker: runs, or their bytes when the sink
     * renders them on the worker */
    struct fsc_item_out {
        fsc_run *run;
        char *text;
        size_t len;
    } *outs;
    size_t n_runs, cap_runs;
    size_t warnings;
    /* Early delivery of a document at the head of the window (pipe.c stream_head):
     * with stream_mu set (the pipe's lock), the worker adds each out under it and
     * publishes it (n_ready), waking stream_cv every few hundred KiB; the delivering
     * thread passes outs [n_sent, n_ready) to the sink while the rest is parsed, so
     * that a big file's results do not all wait in memory for its end. */
    pthread_mutex_t *stream_mu;
    pthread_cond_t *stream_cv;
    size_t n_ready, n_sent, unsent_bytes;
    /* An archive member's runs are rendered on the worker although its group is held
     * for fio logs: what a log needs to find its run is kept instead (the names its
     * jobs claim, see logjoin.c), and the bytes, to parse the document again into
     * runs if a log does join one of them. */
    struct fsc_item_claim {
        size_t run, job;
        char *key;
    } *claims;
    size_t n_claims, cap_claims;
    bool keep_runs;   /* parsing again: keep the runs, do not render them */
    bool over_budget; /* parsed again once, its runs did not fit its budget whole */
    const fsc_input_sink *sink; /* for render */
    /* a piece of a huge file (see read_pieces in pieces.c): not the first piece, more
     * pieces follow (no manifest entry yet), where it starts in the file; renumber:
     * parsed before the run count of the pieces before it was known (its runs are
     * numbered from 1 and renumbered when delivered) */
    bool continued, more, renumber;
    /* the reader judged data (all of it, the job's len) not binary: fsc_looks_binary,
     * a scan of up to 64 KiB, is not done again on the worker */
    bool judged_text;
    /* a piece of a text found FSC_TEXT_NORMAL whole (fsc_doc.checked) */
    bool checked;
    uint32_t first_line;
    size_t first_run;
    /* a piece of a file whose lines the worker counts (first_line comes from pf's
     * count of the pieces before it, index pf_index), and, when data is NULL, reads
     * from offset pf_off (len bytes); held until the piece is read */
    fsc_piece_file *pf;
    size_t pf_index;
    uint64_t pf_off;
    /* a piece of a file with headings to carry: its place in the file's relay, the
     * carry it took (kept for a parse again) and whether it took and gave */
    fsc_piece_relay *relay;
    size_t relay_index;
    fsc_carry *carry_in;
    bool carry_taken, carry_given;
    size_t window_len; /* len when it was submitted (the pipe's window counts it) */
    uint64_t max_memory; /* memory budget of parsing it (bytes; 0 = none) */
    /* fio log files (see logjoin.c) */
    bool is_log;          /* named like a fio log: read by the log reader */
    fsc_logname logname;  /* what the name says (prefix points into path/member) */
    fsc_logfile *log;     /* what the log reader read (owned) */
    bool log_read;        /* the file was a log: its manifest entry is ok without runs */
    unsigned group;       /* held with the other items of its folder or archive until
                           * the group is complete (0: delivered at once) */
    bool group_end;       /* not a document: marks the end of group `group` */
    size_t arg; /* index of the path given to fsc_inputs_read it comes from */
} fsc_item;

/* New job for path/member (both copied). NULL when out of memory. */
fsc_item *fsc_item_new(const char *path, const char *member);
/* Free a job and whatever runs it still holds. NULL is fine. */
void fsc_item_free(fsc_item *job);
/* Parse job->data with parser (run on a worker): fills outs/warnings (rendered when
 * job->sink has render), or turns the job into an error entry (binary data, out of
 * memory). Frees job->data, unless it has claims (then the data stays for
 * fsc_item_reparse). */
void fsc_item_parse(fsc_item *job, const fsc_parser *parser);
/* Turn the rendered runs of a job with claims back into runs, parsing its kept data
 * again (the same runs, ids and warnings: parsing is a function of the document).
 * FSC_E_LIMIT when the job's memory budget does not hold its runs whole, FSC_E_NOMEM
 * when memory runs out: the job is then as it was (its runs rendered). */
fsc_status fsc_item_reparse(fsc_item *job, const fsc_parser *parser);
/* A piece in a relay that was not parsed or did not give its carry (an empty piece,
 * an error): take its turn and hand on the carry it took, unchanged, so that the
 * pieces after it go on with what the text above them leaves. */
void fsc_item_relay_pass(fsc_item *job);
/* A piece with pf and no data: read its len bytes from the file (run on a worker).
 * A read error or a file that shrank makes it an error entry (false). */
bool fsc_item_read_piece(fsc_item *job);
/* Make job, whose text could not be read (err: errno; 0: the file shrank while it
 * was read), an error entry; its text is freed. */
void fsc_item_read_failed(fsc_item *job, int err);
/* Mark job as a fio log file when its name (member, else path) is one. */
void fsc_item_mark_log(fsc_item *job);
/* The held items of one group, in order: attach the series of their log files to the
 * runs they belong to (same folder or archive, file prefix = job name or write_*_log
 * value) and put the rest into a run of format "log", which the first such log file's
 * item then carries. A run rendered already is first parsed again with parser
 * (fsc_item_reparse). FSC_E_NOMEM when memory runs out. */
fsc_status fsc_logs_join(fsc_item **items, size_t n, const fsc_parser *parser);
/* Keep the names run k of job (about to be rendered) claims for fio logs: job
 * names, write_*_log values. False when out of memory. */
bool fsc_item_note_claims(fsc_item *job, size_t k, const fsc_run *run);
/* a and b are in one folder (archive members: of the archive; files: on disk) */
bool fsc_item_same_folder(const fsc_item *a, const fsc_item *b);
/* True when data is neither text nor UTF-16/32 text with a byte order mark: NUL
 * bytes or mostly control bytes. */
bool fsc_looks_binary(const char *data, size_t len);
/* The '\n' bytes in s[0, n) (vectorised where the CPU has SSE2). */
size_t fsc_count_lines(const char *s, size_t n);
/* fsc_json_balanced (parse.h), vectorised where the CPU has SSE2. */
size_t fsc_json_balanced_fast(const char *s, size_t n);
/* Does data start with a UTF-16 or UTF-32 byte order mark (text the parser converts
 * to UTF-8 whole, never cut in pieces at '\n' bytes)? */
bool fsc_has_unicode_bom(const char *data, size_t len);
/* Text that looks binary only for NULs (a crash's zero-filled block, a stray NUL)
 * and is read as text; judged on its first 64 KiB. */
bool fsc_text_despite_nuls(const char *data, size_t len);
/* UTF-32 text without a byte order mark ("UTF-32LE", "UTF-32BE"; NULL: not that),
 * judged on its first 64 KiB. */
const char *fsc_looks_utf32(const char *data, size_t len);
/* UTF-16 or UTF-32 text without a byte order mark (a slice of a PowerShell redirect, a
 * program's own file), judged on its first 64 KiB; FSC_ENC_UTF8: neither (or a mark
 * says what it is). Read like the text with a mark, converted whole. */
fsc_encoding fsc_unicode_unmarked(const char *data, size_t len);
/* Are the n bytes at s all NULs (and n > 0)? */
bool fsc_only_nuls(const char *s, size_t n);
/* May a text whose first len bytes (LOOK_BYTES, or all of it) are data go in pieces
 * cut at its '\n' bytes? Yes where the whole would be parsed as text (fsc_item_parse):
 * not binary, or binary only for its NULs; neither UTF-16 nor UTF-32, with a byte
 * order mark or without (they are converted whole). Not when they are all NULs: the
 * whole may be nothing else (an entry of its own). */
bool fsc_text_in_pieces(const char *data, size_t len);
/* Does the text, judged on its first len bytes (LOOK_BYTES, or all of it), hold a JSON
 * object (a line that begins, after blanks, with a '{' whose next byte other than a
 * blank or line end is a '"')? Such a text goes in pieces from json_piece_min. */
bool fsc_text_holds_json(const char *data, size_t len);

/* Progress line on stderr (a terminal only), redrawn at most 10 times a second. */
typedef struct fsc_progress {
    bool on;
    double t0, last_draw; /* seconds, monotonic */
    double every;         /* seconds between redraws (FIOSCOPE_PROGRESS_EVERY for tests) */
    uint64_t files, text_bytes, runs;
    uint64_t raw_done, raw_total; /* bytes of the inputs as stored; total 0 = unknown */
    bool drawn;
} fsc_progress;

void fsc_progress_init(fsc_progress *p, bool want, uint64_t raw_total);
/* Redraw if due (or always when force). */
void fsc_progress_tick(fsc_progress *p, bool force);
/* Erase the line (the next tick draws it again). */
void fsc_progress_end(fsc_progress *p);

/* Ordered pipeline: jobs are parsed by `jobs` threads (inline when 1) and handed to
 * the sink strictly in submission order, from the thread that submits. */
typedef struct fsc_pipe fsc_pipe;

fsc_pipe *fsc_pipe_new(const fsc_parser *parser, const fsc_input_sink *sink, unsigned jobs,
                       fsc_progress *progress);
/* Hand over job (ownership passes, also on failure). Blocks while the reorder window
 * is full. Returns false once the sink asked to stop or memory ran out. */
bool fsc_pipe_submit(fsc_pipe *p, fsc_item *job);
/* Deliver everything submitted so far (the pieces of a huge file need the run count
 * of the pieces before them). Returns the runs of the pieces of the current file
 * delivered so far. */
size_t fsc_pipe_drain(fsc_pipe *p);
/* Can pieces of a file be parsed before the pieces before them are delivered (their
 * runs renumbered on delivery)? */
bool fsc_pipe_renumbers(const fsc_pipe *p);
/* Threads that parse (0: inline). */
unsigned fsc_pipe_workers(const fsc_pipe *p);
/* Deliver everything still in flight, stop the threads and free p. Returns FSC_OK,
 * FSC_E_INTERRUPTED (a sink stopped) or FSC_E_NOMEM. */
fsc_status fsc_pipe_finish(fsc_pipe *p);

/* The walker: turns paths into jobs. */
typedef struct fsc_walker {
    fsc_pipe *pipe;
    fsc_progress *progress;
    uint64_t max_member, max_ratio, max_memory;
    size_t piece_bytes, piece_min; /* files larger than piece_min are read in pieces */
    size_t piece_step;             /* FSC_PIECE_STEP (tests: piece_bytes) */
    size_t plain_min;              /* plain fio text read whole above this: in pieces */
    size_t json_piece_min;         /* text holding fio JSON: in pieces above this */
    bool worker_reads;             /* workers read the pieces of huge files (read_ranges) */
    fsc_piece_relay *relay;        /* of the file being read in pieces (NULL: none) */
    bool stop;
    /* (st_dev, st_ino) of the directories being read, outermost first */
    struct fsc_dir_id {
        dev_t dev;
        ino_t ino;
        const char *path;
    } *dirs;
    size_t n_dirs, cap_dirs;
    /* bomb accounting of the current top-level file */
    uint64_t top_raw, top_expanded;
    /* groups of items held together for fio log files: the current one (0: none) */
    unsigned cur_group, next_group;
    size_t arg; /* index of the path being read */
} fsc_walker;
/* From how many bytes a text whose first len bytes are data goes in pieces: w's
 * json_piece_min when it holds JSON (fsc_text_holds_json) and that is smaller, else
 * its piece_min. */
size_t fsc_walker_piece_min(const fsc_walker *w, const char *data, size_t len);

/* Open a group of held items (a folder with fio logs, an archive); returns the group
 * that was current, to pass to fsc_walker_group_end. */
unsigned fsc_walker_group_begin(fsc_walker *w);
/* Close the current group (its items are joined and delivered) and make prev current. */
void fsc_walker_group_end(fsc_walker *w, unsigned prev);

/* Queue job (NULL: out of memory: the walk stops); after a stop, only free it. */
void fsc_walker_submit(fsc_walker *w, fsc_item *job);
/* read() (at < 0) or pread() at offset `at` until n bytes or end of file. Returns
 * bytes read, or -1 (errno set). */
ssize_t fsc_read_full(int fd, char *buf, size_t n, int64_t at);
/* The reason for a stream (a pipe, stdin, a device) that went on past limit bytes. */
void fsc_stream_limit_reason(char *out, size_t len, uint64_t limit);

/* Huge texts in pieces (pieces.c). A regular text file of size bytes, too large to
 * read whole (its first n bytes in buf; ownership passes): read and parsed in pieces
 * cut between runs, read by the parse workers themselves where there are two or
 * more. */
void fsc_pieces_read_file(fsc_walker *w, const char *path, int fd, char *buf, size_t n, uint64_t size);
/* A stream's text (its first n bytes in buf; ownership passes) too long to read
 * whole: read and parsed in pieces, up to limit bytes in all (0: no limit). */
void fsc_pieces_read_stream(fsc_walker *w, const char *path, int fd, char *buf, size_t n, uint64_t limit);
/* Up to n bytes of a text into buf, fewer only at its end: the count, 0 at the end,
 * -1 on an error (why: its reason, else errno's). */
typedef ssize_t (*fsc_text_read)(void *ctx, char *buf, size_t n, char *why, size_t whylen);
/* A compressed file's or an archive member's text (member: its name, NULL for the
 * file itself) too long to parse whole (its first n bytes in buf, ownership passes;
 * the rest from read(ctx), which counts the compressed bytes as read): read and parsed
 * in pieces, as a huge plain file is. */
void fsc_pieces_read_from(fsc_walker *w, const char *path, const char *member, char *buf, size_t n,
                          fsc_text_read read, void *ctx);
/* A text read whole (buf[0, n), up to piece_min bytes; ownership passes when true is
 * returned): parsed in pieces side by side when it is longer than plain_min and fio's
 * own output and nothing else (fsc_text_is_plain_fio). */
bool fsc_pieces_plain(fsc_walker *w, const char *path, char *buf, size_t n);
/* fsc_pieces_plain for a regular file of about hint bytes (fd, its offset left as
 * it is), without reading it whole: true when it was plain and went in pieces, false
 * when it is to be read otherwise. *kind: what the file was found to be, when it was
 * looked at (FSC_TEXT_SIMPLE: it may go in pieces as a huge text does; else
 * FSC_TEXT_MIXED). */
bool fsc_pieces_plain_file(fsc_walker *w, const char *path, int fd, uint64_t hint, fsc_text_kind *kind);
/* A piece of a file the workers read (read_ranges; job->data read), once the pieces
 * before it are settled and end at `start`: it is made to begin there, and not to end
 * inside a JSON document it holds (seen from its start, as read_pieces sees a piece),
 * which the reading thread could not see from its window: then it goes on to the last
 * run boundary after that document closes in as much text again, or to the end of the
 * file. Returns where it ends in the file. A read error makes it an error entry. */
uint64_t fsc_piece_settle(fsc_item *job, uint64_t start);
/* Where the cutters of read_pieces end a piece of buf[0, n) (its JSON documents found
 * as there; a line start after n / 2, or 0 for none): the run boundary (strict: no
 * loose one), else with weak the cut of a text whose runs are not seen. For the fuzz
 * target of the cutters, which look at hostile bytes before anything else does. */
size_t fsc_piece_cut_of(const char *buf, size_t n, bool weak);

/* Submit a job decided by the reader (status error or no-runs, with a reason). */
void fsc_walker_fixed(fsc_walker *w, const char *path, const char *member, fsc_input_status st,
                      const char *fmt, ...) FSC_PRINTF(5, 6);
/* Submit the document data (ownership passes) read from path/member at archive
 * depth: opens it as an archive when its magic says so, else queues it as text. */
void fsc_walker_doc(fsc_walker *w, const char *path, const char *member, char *data, size_t len,
                    int depth);
/* mail.c: the archives and compressed files attached to a mail (base64 parts) in
 * data[0, len), a document that begins as a mail or an mbox: *out gets them (an
 * array the caller frees, with each data), named by their file names
 * ("attachment-N" for a part without one; no '/' in a name); returns how many (0:
 * none, not a mail, or out of memory). */
typedef struct fsc_mail_archive {
    char *data;
    size_t len;
    char name[201];
} fsc_mail_archive;
size_t fsc_mail_archives(const char *data, size_t len, fsc_mail_archive **out);
/* Does the document that begins with s[0, n) begin as a mail or an mbox? */
bool fsc_mail_start(const char *s, size_t n);
/* The same archives for the mail or mbox in the regular file fd (its first size
 * bytes), read part by part from its start (one read whole would not fit): each goes
 * to fn as soon as its part ends (fn owns a->data; false: stop). Nothing when the
 * file does not begin as a mail. False on a read error; *oom when memory ran out. */
typedef bool (*fsc_mail_archive_fn)(void *ctx, fsc_mail_archive *a);
bool fsc_mail_archives_file(int fd, uint64_t size, fsc_mail_archive_fn fn, void *ctx, bool *oom);
/* The name of member `name` inside the member `prefix` (NULL: at the top), "prefix/name",
 * as archives name their nested members; caller frees; NULL when out of memory. */
char *fsc_join_member(const char *prefix, const char *name);
/* True when the first bytes (prefix, n) are the magic of an archive or of a
 * compressed stream that fioscope reads (tar, zip, gzip, xz, zstd, bzip2). */
bool fsc_is_archive_magic(const unsigned char *prefix, size_t n);
/* The name of an archive or compression format that fioscope knows but does not read
 * ("7-Zip archive"), or NULL. */
const char *fsc_unread_archive(const unsigned char *prefix, size_t n);

/* Read the archive on fd (its first n bytes already read into prefix) member by
 * member; every member becomes a job. */
void fsc_archive_read_fd(fsc_walker *w, const char *path, int fd, const char *prefix, size_t n);
/* True when libarchive reads data as an archive although it has no known magic (a
 * v7 tar, an empty tar of zero blocks): asked only of data that looks binary. */
bool fsc_archive_sniff(const char *data, size_t len);
/* Do the first n bytes s of a document (64 KiB at least, when it has them) decide
 * that all of it is binary data, as fsc_walker_doc and fsc_item_parse would find it
 * whole? Binary, not only NULs, not UTF-32 or text despite NULs, no archive at its
 * start. (An archive found from the end, a self-extracting zip, is the caller's to
 * rule out.) */
bool fsc_binary_decided(const char *s, size_t n);
/* The entry of such a document. */
#define FSC_BINARY_DATA "binary data: neither text nor a known archive or compressed format"
/* Read an archive held in memory (a member of an outer archive, named member). */
void fsc_archive_read_mem(fsc_walker *w, const char *path, const char *member, const char *data,
                          size_t len, int depth);

#endif
