/* SPDX-License-Identifier: MIT */
/*
 * Finding and reading fio runs in a document: normalize → segment → detect →
 * parse (normal text via grammars/, fio JSON, terse) → context and label.
 */
#ifndef FIOSCOPE_PARSE_H
#define FIOSCOPE_PARSE_H

#include "fioscope/buf.h"
#include "fioscope/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fsc_label_from {
    FSC_LABEL_HEADING, /* headings above the run › job name (default) */
    FSC_LABEL_FILE,    /* file (and member) name › job name */
    FSC_LABEL_JOB,     /* job name only */
    FSC_LABEL_CONTEXT  /* every context entry › job name */
} fsc_label_from;

typedef struct fsc_parse_opts {
    fsc_label_from label_from;
    /* One fio invocation printed in several formats (--output-format=normal,json) is
     * one run (the most precise numbers, source.formats lists them all). true keeps
     * each printout as a run of its own, as printed (to check one reader against
     * another). */
    bool each_format;
} fsc_parse_opts;

/* Immutable after creation: one parser may be used by several threads at once. */
typedef struct fsc_parser fsc_parser;

/* Load and check the grammars (compiled into the binary from grammars/; the
 * environment variable FIOSCOPE_GRAMMAR_DIR overrides them with *.json files from a
 * directory). Returns NULL on failure with the reason in err. opts may be NULL. */
fsc_parser *fsc_parser_new(const fsc_parse_opts *opts, fsc_buf *err);
void fsc_parser_free(fsc_parser *p); /* NULL is fine */

/* What the text above a point of a document leaves to the runs below it: the outline
 * headings in force there (a run's context and label), whether text, a title or an
 * open fence came before, and the fio command a search upward from there finds
 * (context.c). Opaque; made by fsc_parse_doc for the next piece of a file. */
typedef struct fsc_carry fsc_carry;
void fsc_carry_free(fsc_carry *c); /* NULL is fine */

/* How a piece of a file gets the carry of the text before it and hands on its own,
 * piece after piece in file order (the pieces may be parsed side by side). The parse
 * calls take at most once, then give at most once; the caller hands on whatever it
 * did not give (an error, a piece not parsed). */
typedef struct fsc_carry_link {
    /* the carry at the piece's start, once the piece before has given it (it may
     * wait for that); NULL: none (the file's first piece, or it was lost). It stays
     * the caller's and lives until the parse returns. */
    const fsc_carry *(*take)(void *ctx);
    /* the carry at the piece's end, for the next piece (ownership passes; NULL: not
     * known) */
    void (*give)(void *ctx, fsc_carry *end);
    void *ctx;
} fsc_carry_link;

/* What a document's bytes are when no byte order mark says it (a mark, when there is
 * one, decides: UTF-16 or UTF-32 is converted to UTF-8 whole). The input layer judges
 * a text without one from its first bytes (fsc_unicode_unmarked, input). */
typedef enum fsc_encoding {
    FSC_ENC_UTF8 = 0, /* UTF-8 (bytes that are not become U+FFFD) */
    FSC_ENC_UTF16LE,
    FSC_ENC_UTF16BE,
    FSC_ENC_UTF32LE,
    FSC_ENC_UTF32BE,
} fsc_encoding;

/* One document to read. path/member are copied into the runs' source. */
typedef struct fsc_doc {
    const char *path;
    const char *member; /* archive member or NULL */
    const char *data;
    size_t len;
    /* A piece of a larger file (the input layer reads huge files in pieces): lines
     * before data in the file, and runs found in the pieces before. Both 0 for a
     * whole document; line numbers and run ids "#k" continue from them. */
    uint32_t first_line;
    size_t first_run;
    /* A piece of a larger file: what the text above it leaves to its runs (NULL: a
     * whole document, or nothing carried). */
    const struct fsc_carry_link *carry;
    /* A piece of a larger file that more of the file follows: what is left open at
     * its end (Disk stats whose run is above the piece) is read as a run cut off
     * above the next one, as in the whole text. false for a whole document. */
    bool more;
    /* A whole document without a byte order mark that is UTF-16 or UTF-32 (a slice
     * of a Windows redirect, a program's own file): converted to UTF-8 whole. */
    fsc_encoding encoding;
    /* A piece, cut between two runs, of a text its reader found FSC_TEXT_NORMAL whole
     * (fsc_plain_check): the pre-scan does not ask again what each of its lines is,
     * only what bytes it holds (a file may change while it is read) and where its
     * lines end. false: asked as of any text. */
    bool checked;
} fsc_doc;

/* Receives each run found, in document order; takes ownership of run. Return false
 * to stop parsing (out of memory downstream, or interrupted). */
typedef bool (*fsc_run_sink)(void *ctx, fsc_run *run);

/* Parse a whole document. Every run found goes to sink with id "P#k", source,
 * context, label and warnings filled. *n_runs counts them. Bad input never fails
 * the call: it becomes warnings; only FSC_E_NOMEM (or a stopping sink) does. */
fsc_status fsc_parse_doc(const fsc_parser *p, const fsc_doc *doc, fsc_run_sink sink, void *ctx,
                         size_t *n_runs);

/* fsc_parse_doc, and when the document yields no run, what it held instead: *why
 * (if why is not NULL) is set to one or more lines "line N: sentence" (an interrupted
 * fio run without results, fio's preamble alone, a JSON document that cannot be
 * read, result lines whose jobs cannot be told apart), the first FSC_WHY_NOTES of them
 * and then "and K more notes" when there are more, or NULL when nothing fio-like was
 * found. A piece of a larger file (doc->more, or doc->first_line > 0) gets all of its
 * notes, not capped: a run in a later piece tells them, as the whole text's run below
 * them would (fsc_why_join caps them for a file without runs). The caller frees *why. */
fsc_status fsc_parse_doc_why(const fsc_parser *p, const fsc_doc *doc, fsc_run_sink sink, void *ctx,
                             size_t *n_runs, char **why);
enum { FSC_WHY_NOTES = 20 };

/* The why of two pieces of a document, one after the other (a's text first; either
 * NULL), as fsc_parse_doc_why gives it for their text read whole: a's notes, then
 * b's, the first FSC_WHY_NOTES of them and how many more. Both are freed; NULL when
 * both are NULL or memory runs out. */
char *fsc_why_join(char *a, char *b);

/* Notes as fsc_parse_doc_why gives them (lines "line N: sentence", in line order)
 * become run's warnings, up to the first about a line after `upto` (UINT32_MAX: all).
 * Returns the bytes of notes[0, len) used; *oom is set when memory ran out (the
 * notes after that one are still told). */
size_t fsc_notes_tell(fsc_run *run, const char *notes, size_t len, uint32_t upto, bool *oom);
/* The fewest ';'-separated fields of a terse record (one direction block: fio's
 * unified_rw_reporting=1 in terse v2 has 79, v3 and v4 80): fewer is no record
 * (prose with semicolons). The reader detects by it, the file cutter too. */
enum { FSC_TERSE_MIN_FIELDS = 75 };

/* Begin a note about line `line` in notes ("line N: ", after a newline when notes
 * has some): its sentence is appended next (fsc_buf_puts, fsc_buf_printf). */
void fsc_notes_line(fsc_buf *notes, uint32_t line);

/* Is text[0, len) fio's output as fio wrote it and nothing else: only the lines fio
 * prints (normal text, JSON documents, terse records), plain ASCII, with no heading,
 * title, command line or markup that a run could take from the text above it? Such a
 * document parses into the same runs whole as cut between its runs (after the disk or
 * group lines of one run, before the job definitions of the next; between two JSON
 * documents; between two blocks of terse records), so a reader may parse its parts
 * side by side. A text that ends inside a line is judged as it is. */
bool fsc_text_is_plain_fio(const char *text, size_t len);

/* What a text is to a reader that may cut it into pieces (fsc_plain_check). */
typedef enum fsc_text_kind {
    FSC_TEXT_MIXED, /* anything else: parsed whole up to the size of a huge file */
    /* fio's text with other lines among it (headings, commands, notes, prose), all
     * printable text, ASCII or UTF-8, but for tabs, CRs (CRLF) and a terminal's
     * ESC, BEL and backspace (colour codes), without markup or entity
     * characters, none longer than fio's
     * (240 bytes: a flattened paste), holding no JSON or terse record, no "=3D"
     * and no MIME header: normalizing changes such a text line by line, and a
     * piece's headings come from the pieces above it, so it reads the same in
     * pieces as whole */
    FSC_TEXT_SIMPLE,
    FSC_TEXT_PLAIN, /* fsc_text_is_plain_fio */
    /* FSC_TEXT_PLAIN with no JSON document or terse record: fio's normal text alone.
     * Each piece of it cut between two runs is clean to the pre-scan line by line
     * (fsc_doc.checked) */
    FSC_TEXT_NORMAL
} fsc_text_kind;

/* Is kind FSC_TEXT_PLAIN or FSC_TEXT_NORMAL (fsc_text_is_plain_fio)? */
static inline bool fsc_text_kind_plain(fsc_text_kind kind)
{
    return kind == FSC_TEXT_PLAIN || kind == FSC_TEXT_NORMAL;
}

/* fsc_text_is_plain_fio of a text read part by part, without holding it whole (a
 * reader that cuts a file into pieces); with simple_too, FSC_TEXT_SIMPLE as well.
 * Parts come in order, each of whole lines (ending with '\n'), the last through
 * fsc_plain_check_end (whose last line may lack its newline; it may be empty).
 * Owned by the caller until fsc_plain_check_end or fsc_plain_check_free; NULL when
 * out of memory. */
typedef struct fsc_plain_check fsc_plain_check;
fsc_plain_check *fsc_plain_check_new(bool simple_too);
/* The next part; false once the text can be neither plain nor (when asked) simple:
 * reading on is no use. */
bool fsc_plain_check_lines(fsc_plain_check *c, const char *part, size_t len);
/* The last part, and the verdict; frees c. */
fsc_text_kind fsc_plain_check_end(fsc_plain_check *c, const char *part, size_t len);
void fsc_plain_check_free(fsc_plain_check *c);
/* fsc_plain_check's verdict (a simple text asked for) on text[0, len) at once;
 * FSC_TEXT_MIXED when out of memory. */
fsc_text_kind fsc_text_kind_of(const char *text, size_t len);

/* The length of the JSON value at s (s[0] is '{' or '['): up to its balancing
 * bracket, strings skipped; 0 when it does not close within n bytes. The extent the
 * parser gives a JSON document it finds. */
size_t fsc_json_balanced(const char *s, size_t n);

/* The length of the CI timestamp that normalizing takes off the front of the line
 * s[0, n) ("2024-01-02T03:04:05.1234567Z ", "[12:34:56] ", "[2024-01-02 03:04:05] "),
 * with the space after it; 0 when there is none. */
size_t fsc_stamp_len(const char *s, size_t n);

/* Does the line s[0, n) of fio's report (after a host's name, if any) end a report:
 * a disk line ("  vda: ios=..."), a group line ("   READ: bw=...") when there are no
 * disk stats? The one test of the cutter of huge texts (pieces.c) and of the
 * regrouping of hosts' lines (prefix.c), which must agree on where runs end. */
bool fsc_report_end_line(const char *s, size_t n);

/* May a huge text be cut at offset `at` of buf[0, n) (a line start) as far as its
 * hosts go? A text of several hosts' lines (pdsh, clush, GNU parallel --tag, docker
 * compose, kubectl --prefix: a name before each, fio's own lines after it) is put
 * together host by host, part by part, where every host is between runs (prefix.c):
 * a cut only there, or a piece puts its lines in another order than the whole text,
 * or splits a host's run. True for a text without such names. budget (NULL: none):
 * the lines it may still look at, 512 a call, taken off; false when it is spent, so
 * that a text of candidates that all fail (hosts that never stand between runs
 * together, or made so) costs a few times its lines, not 512 lines each. */
bool fsc_hosts_cut_ok(const char *buf, size_t n, size_t at, size_t *budget);

/* The length of the host's name before the line s[0, n) as fsc_hosts_cut_ok and the
 * regrouping read it ("node-1: ", "gpu-a<TAB>", "fio-1  | ", "[pod/fio-0/fio] "),
 * and where fio's own line after it begins (*rest); 0 when there is none. A tab counts
 * as the one space normalizing makes of it. */
size_t fsc_line_host(const char *s, size_t n, size_t *rest);

/* The length of the terminal controls at the front of the line s[0, n) that
 * normalizing takes out ("\e[32m", "\e[0K", "^[[1m", a bare "[0m"); 0 for none.
 * The line ends at the first '\n' of s[0, n), if any. */
size_t fsc_term_lead(const char *s, size_t n);

/* The line s[0, n) of a JSON log (Docker's {"log":"...", a shipper's {"message":
 * "..."}; the line's text is that string, which normalizing reads): where the string
 * begins; 0 for a line that is none. A quick look, no JSON parse: the line must
 * begin with '{'. */
size_t fsc_jsonlog_lead(const char *s, size_t n);

/* The line s[0, n) that holds output as a string literal (b'...\n...', a dict's
 * 'stdout': '...', output="...": normalizing reads its strings' lines): where the text
 * of its first string with a newline escape begins (fsc_strlit_lead), and where the
 * last line of its last such string begins (fsc_strlit_tail: after the last newline
 * escape but one that ends the string); 0 for a line with no such string. A quick
 * look, nothing decoded: the cutter of huge texts cuts between two such lines where
 * one ends a run and the next begins one. */
size_t fsc_strlit_lead(const char *s, size_t n);
size_t fsc_strlit_tail(const char *s, size_t n);

/* The id of the k-th run (from 1) of a document: "path#k" or "path:member#k".
 * Caller frees; NULL when out of memory. */
char *fsc_run_id(const char *path, const char *member, size_t k);

/* The label of one job of a run, per the parser's label_from ("RAID 0 › 4k 随机写 ›
 * 4k_randwrite"). Caller frees. */
char *fsc_job_label(const fsc_run *run, const fsc_job *job, fsc_label_from from);

/* Length of the outline number that starts a heading ("2.2 4k 随机写" → 4, with the
 * spaces after it; "2. RAID 0" → 3), 0 when there is none. A bare "5 " does not
 * count. */
size_t fsc_heading_number_len(const char *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
