/* SPDX-License-Identifier: MIT */
/* Headings and command lines above a run (its context), and the run's label. */
#include "parse_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Outline levels. Headings of different styles are placed on one scale so that a
 * run's context is the chain of ancestors of the nearest heading:
 *   0      the document title (first line, followed by a blank line)
 *   1..6   Markdown "#".."######"; "===" underlined = 1, "---" underlined = 2;
 *          numbered headings by depth ("2." = 1, "2.3" = 2, "2.3.1" = 3)
 *   7      a whole-line bold "**x**"
 *   8      captions: short title-like lines followed by a blank line or by the
 *          command; mail attachment markers "[-- Attachment #2: name --]"
 * Two headings of the same level with only blank lines between them (a heading
 * written over two lines) are both kept. Lines inside ``` fences are never headings.
 */
enum { LEVEL_TITLE = 0, LEVEL_BOLD = 7, LEVEL_CAPTION = 8, MAX_CHAIN = 16 };
enum { TITLE_MAX = 100, CAPTION_MAX = 60, CAPTION_WORDS = 8 };

typedef struct span {
    const char *s;
    size_t n;
} span;

/* What the line right above a text is (a piece of a file: the last line of the pieces
 * above it). A document's first line has none: the same as a blank line to the rules
 * that want a blank line above (captions, numbered headings, a run's label); not so
 * the first line of a piece whose text above ends in a line of text. */
typedef enum above_kind { ABOVE_BLANK, ABOVE_FENCE, ABOVE_FIO, ABOVE_TEXT } above_kind;

/* The line of a heading carried from above the text (a piece of a file). */
#define LINE_ABOVE SIZE_MAX

typedef struct heading {
    size_t line; /* LINE_ABOVE: carried from above the text */
    int level;
    span text;
    uint32_t parent; /* 1 + index of the enclosing heading, 0 = none in this text */
    /* with parent 0: how many of the carried headings (fsc_outline.above) are still
     * in force under it (the others it closed) */
    uint32_t keep;
} heading;

/* What the text above a piece leaves to it (fsc_carry in parse.h). The headings are
 * the stack in force at its end, outermost first, at most MAX_CHAIN of each level:
 * a chain shows the MAX_CHAIN innermost, and a heading closes all of a level at
 * once, so a deeper one of that level can never show again. */
struct fsc_carry {
    struct carried {
        char *text;
        int level;
    } *heads;
    size_t n_heads;
    char *command;  /* the fio command found upward from the end; NULL: none */
    bool text_seen; /* a line of text came before (the title is the first one) */
    bool fenced;    /* inside a ``` fence */
    bool top_last;  /* the innermost heading is the last line of text (two-line headings) */
    above_kind last; /* what the last line above is, to the rules that look one line up */
    fsc_mail_state mail; /* the mail the text ends in (normalize.c; parse.c sets it) */
};

const fsc_mail_state *fsc_carry_mail(const fsc_carry *c)
{
    return &c->mail;
}

void fsc_carry_set_mail(fsc_carry *c, const fsc_mail_state *m)
{
    c->mail = *m;
}

/* All headings, and for every line the innermost heading in force before it. The
 * chain of a line is a walk up the parent links: the outline is a persistent stack.
 * Under the headings of the text come those carried from above it, in force until a
 * heading of the text closes them (heading.keep). */
struct fsc_outline {
    heading *heads;
    size_t n_heads, cap_heads;
    uint32_t *top_before; /* n_lines + 1 entries: 1 + heading index, 0 = none */
    const fsc_carry *carry; /* what came above (NULL: nothing), borrowed */
    heading *above;         /* its headings, outermost first */
    size_t n_above;
    /* at the end of the text, for the next piece's carry */
    bool end_text_seen, end_fenced, end_top_last;
    above_kind top, end_last; /* what is above line 0 (the carry's end_last), what its last line is */
};

static span line_span(const fsc_text *t, size_t i)
{
    span sp = {fsc_text_line(t, i), t->lines[i].len};
    return sp;
}

static span trim(span sp)
{
    while (sp.n && (sp.s[0] == ' ' || sp.s[0] == '\t')) {
        sp.s++;
        sp.n--;
    }
    while (sp.n && (sp.s[sp.n - 1] == ' ' || sp.s[sp.n - 1] == '\t'))
        sp.n--;
    return sp;
}

/* sp_starts, sp_ends and sp_has take the literal's length where it is written (a
 * literal's strlen is worked out by the compiler): title_text asks a dozen of them
 * of every line, and their strlen calls were a tenth of the cost of a text of short
 * lines ("x\r" x N). */
#define sp_starts(sp, lit) sp_starts_n((sp), (lit), strlen(lit))
#define sp_ends(sp, lit) sp_ends_n((sp), (lit), strlen(lit))
#define sp_has(sp, lit) sp_has_n((sp), (lit), strlen(lit))

static bool sp_starts_n(span sp, const char *lit, size_t k)
{
    return sp.n >= k && memcmp(sp.s, lit, k) == 0;
}

static bool sp_ends_n(span sp, const char *lit, size_t k)
{
    return sp.n >= k && memcmp(sp.s + sp.n - k, lit, k) == 0;
}

static bool sp_has_n(span sp, const char *lit, size_t k)
{
    const char *end = sp.s + sp.n;
    for (const char *p = sp.s; k <= (size_t)(end - p) && (p = memchr(p, lit[0], (size_t)(end - p) - k + 1)); p++)
        if (memcmp(p, lit, k) == 0)
            return true;
    return false;
}

static bool is_blank(const fsc_text *t, size_t i)
{
    return trim(line_span(t, i)).n == 0;
}

/* ---- what a line is ---- */

/* A literal with its length, so that a list of line starts is tested without strlen. */
typedef struct lit {
    const char *s;
    size_t n;
} lit;
#define LIT(x) {x, sizeof x - 1}

static bool starts_with_any(span sp, const lit *l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (sp.n >= l[i].n && sp.s[0] == l[i].s[0] && memcmp(sp.s, l[i].s, l[i].n) == 0)
            return true;
    return false;
}

/* Lines that fio prints: never headings; some of them end an earlier run. */
static bool is_fio_output(span sp)
{
    static const lit starts[] = {
        LIT("fio-"),      LIT("Starting "), LIT("Jobs:"),      LIT("read:"),     LIT("write:"),
        LIT("trim:"),     LIT("read :"),    LIT("write :"),    LIT("slat "),     LIT("clat "),
        LIT("lat "),      LIT("bw "),       LIT("iops"),       LIT("cpu "),      LIT("IO depths"),
        LIT("submit "),   LIT("complete "), LIT("issued "),    LIT("latency "),  LIT("Run status group"),
        LIT("READ:"),     LIT("WRITE:"),    LIT("TRIM:"),      LIT("MIXED:"),    LIT("Disk stats"),
        LIT("|"),         LIT("fsync"),     LIT("sync "),      LIT("mixed:"),    LIT("fio:")};
    sp = trim(sp);
    if (starts_with_any(sp, starts, sizeof starts / sizeof *starts))
        return true;
    return sp_has(sp, "(groupid=") || sp_has(sp, "(g=") || sp_has(sp, ": ios=") || sp_has(sp, ";fio-");
}

/* A line that closes an earlier run: the command search does not go above it. A JSON
 * document on one line (JSON Lines, fioscope's own output read back) closes one as
 * the '}' line of a document over many lines does: without it, every run of such a
 * file searched all the lines above it (a 10 MB file: 9.5 s, 4.5x a 5 MB one). */
static bool ends_a_run(span sp)
{
    static const lit starts[] = {LIT("Run status group"), LIT("READ:"), LIT("WRITE:"),
                                 LIT("TRIM:"), LIT("MIXED:"), LIT("Disk stats"),
                                 LIT("latency "), LIT("issued "), LIT("}")};
    sp = trim(sp);
    if (starts_with_any(sp, starts, sizeof starts / sizeof *starts))
        return true;
    if (sp.n >= 2 && sp.s[0] == '{' && sp.s[sp.n - 1] == '}')
        return true;
    return sp_has(sp, "(groupid=") || sp_has(sp, ": ios=") || sp_has(sp, ";fio-");
}

/* Does a fio invocation start at rest ("fio --name=x", "sudo fio job.fio",
 * "./fio -f x", "fio \\")? Returns the offset of the program word ("sudo" and
 * "time" are skipped) or -1. */
static long fio_invocation(span rest)
{
    span w = {rest.s, 0};
    for (int k = 0; k < 3; k++) { /* the program word, after "sudo" or "time" */
        while (w.s < rest.s + rest.n && *w.s == ' ')
            w.s++;
        w.n = 0;
        while (w.s + w.n < rest.s + rest.n && w.s[w.n] != ' ')
            w.n++;
        bool prefix = (w.n == 4 && (memcmp(w.s, "sudo", 4) == 0 || memcmp(w.s, "time", 4) == 0));
        if (!prefix)
            break;
        w.s += w.n;
    }
    if (!(w.n == 3 && memcmp(w.s, "fio", 3) == 0) && !(w.n > 4 && memcmp(w.s + w.n - 4, "/fio", 4) == 0))
        return -1;
    span arg = trim((span){w.s + w.n, (size_t)(rest.s + rest.n - (w.s + w.n))});
    size_t an = 0;
    while (an < arg.n && arg.s[an] != ' ')
        an++;
    if (!an)
        return -1;
    bool looks_like_arg = arg.s[0] == '-' || arg.s[0] == '\\' || memchr(arg.s, '.', an) || memchr(arg.s, '/', an);
    return looks_like_arg ? (long)(w.s - rest.s) : -1;
}

/* The first prompt mark ('$', '#', '>') in s[0, n), or NULL: three vector scans
 * (libc's memchr) cost less than a look at each byte of most lines, which have none. */
static const char *prompt_mark(const char *s, size_t n)
{
    const char *first = memchr(s, '$', n);
    size_t m = first ? (size_t)(first - s) : n;
    const char *c = memchr(s, '#', m);
    if (c) {
        first = c;
        m = (size_t)(c - s);
    }
    c = memchr(s, '>', m);
    return c ? c : first;
}

/* Offset of the fio invocation in a command line, after any shell prompt
 * ("$ ", "# ", "root@host[/mnt]# ", "user@host:~$ "), or -1. */
static long command_start(span sp)
{
    /* the program word is "fio" or ends in "/fio" (fio_invocation): a line without
     * them is no command, told by one scan (most lines asked are fio's own: a run's
     * first line, a job definition, costs some 270 instructions through the rest) */
    if (!sp_has(sp, "fio"))
        return -1;
    long at = fio_invocation(sp);
    size_t lim = sp.n > 2 ? sp.n - 2 : 0; /* a mark, a space, and the command */
    if (lim > 100)
        lim = 100;
    for (size_t p = 0; at < 0 && p < lim; p++) {
        const char *m = prompt_mark(sp.s + p, lim - p);
        if (!m)
            break;
        p = (size_t)(m - sp.s);
        if (sp.s[p + 1] == ' ') {
            at = fio_invocation((span){sp.s + p + 2, sp.n - p - 2});
            if (at >= 0)
                at += (long)(p + 2);
        }
    }
    return at;
}

static bool is_command(span sp)
{
    return command_start(trim(sp)) >= 0;
}

/* "[global]", "[job1]": the first line of a job file section. */
static bool is_section(span sp)
{
    sp = trim(sp);
    if (sp.n < 3 || sp.s[0] != '[' || sp.s[sp.n - 1] != ']')
        return false;
    for (size_t i = 1; i + 1 < sp.n; i++)
        if (sp.s[i] == ' ' || sp.s[i] == '=' || sp.s[i] == '[' || sp.s[i] == ']')
            return false;
    return true;
}

/* "rw=randread", "time_based", "; comment" inside a job file. */
static bool is_job_option(span sp)
{
    sp = trim(sp);
    if (!sp.n)
        return false;
    if (sp.s[0] == ';' || sp.s[0] == '#')
        return true;
    size_t i = 0;
    while (i < sp.n && (isalnum((unsigned char)sp.s[i]) || sp.s[i] == '_'))
        i++;
    if (i == 0)
        return false;
    while (i < sp.n && sp.s[i] == ' ')
        i++;
    return i == sp.n || sp.s[i] == '=';
}

/* ---- headings ---- */

static bool ends_like_sentence(span sp)
{
    static const lit ends[] = {LIT("."), LIT("?"), LIT("!"), LIT(","), LIT(";"), LIT("\xe3\x80\x82"),
                               LIT("\xef\xbc\x9f"), LIT("\xef\xbc\x81"), LIT("\xef\xbc\x8c"), LIT("\xef\xbc\x9b"),
                               LIT("\xe3\x80\x81")};
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++)
        if (sp_ends_n(sp, ends[i].s, ends[i].n))
            return true;
    return false;
}

static size_t count_words(span sp)
{
    size_t w = 0;
    for (size_t i = 0; i < sp.n; i++)
        if (sp.s[i] != ' ' && (i == 0 || sp.s[i - 1] == ' '))
            w++;
    return w;
}

/* "22:30:27" anywhere: a date or log line, not a title. */
static bool has_clock(span sp)
{
    for (size_t i = 0; i + 5 <= sp.n; i++)
        if (isdigit((unsigned char)sp.s[i]) && isdigit((unsigned char)sp.s[i + 1]) && sp.s[i + 2] == ':' &&
            isdigit((unsigned char)sp.s[i + 3]) && isdigit((unsigned char)sp.s[i + 4]))
            return true;
    return false;
}

/* Text that could be a title: not fio output, a command, a prompt, a path, a date,
 * a list item or prose (title_like without the length limit). */
static bool title_text(span sp)
{
    sp = trim(sp);
    if (!sp.n || strchr("-*+|[(>{<#$`~=/.", sp.s[0]) || memchr(sp.s, '=', sp.n) ||
        memchr(sp.s, '@', sp.n) || memchr(sp.s, '<', sp.n) || memchr(sp.s, '>', sp.n) || sp_has(sp, ". ") ||
        sp_ends(sp, "wrote:") || sp_ends(sp, "wrote") || sp_has(sp, "$ ") || sp_has(sp, "# ") || sp_ends(sp, "$") ||
        sp_ends(sp, "#") || has_clock(sp) || ends_like_sentence(sp) || is_fio_output(sp) || is_command(sp) ||
        sp_has(sp, "://"))
        return false;
    bool letter = false;
    for (size_t i = 0; i < sp.n && !letter; i++)
        letter = isalpha((unsigned char)sp.s[i]) || (unsigned char)sp.s[i] >= 0x80;
    return letter;
}

static bool title_like(span sp, size_t max_len)
{
    return trim(sp).n <= max_len && title_text(sp);
}

/* title_like of one line, worked out at most once (heading_at asks up to three times). */
typedef struct title_memo {
    span sp;
    int text; /* -1 unknown, else title_text(sp) */
} title_memo;

static bool title_like_memo(title_memo *m, size_t max_len)
{
    if (trim(m->sp).n > max_len)
        return false;
    if (m->text < 0)
        m->text = title_text(m->sp);
    return m->text;
}

static span strip_colon(span sp)
{
    if (sp_ends(sp, "::")) /* reST: "Results::" introduces a literal block */
        sp.n -= 2;
    else if (sp_ends(sp, ":"))
        sp.n--;
    else if (sp_ends(sp, "\xef\xbc\x9a")) /* full-width colon */
        sp.n -= 3;
    return trim(sp);
}

/* "## Title ##" → level 2. */
static bool atx_heading(span sp, heading *h)
{
    size_t lead = 0;
    while (lead < sp.n && lead < 4 && sp.s[lead] == ' ')
        lead++;
    size_t k = lead;
    while (k < sp.n && sp.s[k] == '#')
        k++;
    size_t hashes = k - lead;
    if (lead > 3 || hashes == 0 || hashes > 6 || k >= sp.n || sp.s[k] != ' ')
        return false;
    span text = trim((span){sp.s + k, sp.n - k});
    while (text.n && text.s[text.n - 1] == '#')
        text.n--;
    text = trim(text);
    if (sp_ends(text, "}")) { /* "Title {#anchor}" */
        const char *open = text.s + text.n;
        while (open > text.s && open[-1] != '{')
            open--;
        if (open > text.s && open < text.s + text.n && *open == '#')
            text.n = (size_t)(open - 1 - text.s);
    }
    text = strip_colon(text);
    if (!text.n || is_command(text) || is_fio_output(text) || strchr("./~", text.s[0]) || sp_has(text, " --") ||
        sp_has(text, " | ") || sp_has(text, " > "))
        return false; /* "# fio --name=x", "# ./run.sh 10": a root prompt, not a heading */
    h->level = (int)hashes;
    h->text = text;
    return true;
}

/* Depth of an outline number at the start of sp ("2." → 1, "2.3" → 2), its length
 * with the following space in *len; 0 if none. A bare "5 " does not count. */
static int outline_number(span sp, size_t *len)
{
    size_t i = 0;
    int depth = 0;
    bool dot = false;
    while (i < sp.n && isdigit((unsigned char)sp.s[i])) {
        size_t d = i;
        while (i < sp.n && isdigit((unsigned char)sp.s[i]))
            i++;
        if (i - d > 3)
            return 0;
        depth++;
        if (i < sp.n && sp.s[i] == '.') {
            dot = true;
            i++;
        }
    }
    if (!depth || !dot || depth > 6 || i >= sp.n || sp.s[i] != ' ')
        return 0;
    while (i < sp.n && sp.s[i] == ' ')
        i++;
    *len = i;
    return depth;
}

static bool blank_or_edge(const fsc_text *t, size_t i, size_t limit)
{
    return i >= limit || is_blank(t, i) || (t->lines[i].flags & FSC_LINE_FENCE);
}

/* "[-- Attachment #2: virt-ham0-raid1.txt --]" → "virt-ham0-raid1.txt". */
static bool attachment_marker(span sp, span *name)
{
    sp = trim(sp);
    if (!sp_starts(sp, "[-- Attachment #") || !sp_ends(sp, "--]"))
        return false;
    const char *c = memchr(sp.s, ':', sp.n);
    if (!c)
        return false;
    *name = trim((span){c + 1, (size_t)(sp.s + sp.n - 3 - (c + 1))});
    return name->n > 0 && !sp_starts(*name, "Type:");
}

/* A MIME part's header naming its file ("Content-Disposition: attachment;
 * filename="fio.log"", RFC 2231's filename*=UTF-8''fio%20run.log left as it is but
 * for its charset) → the name: the part's caption, in place of the text before it (a
 * mail's sign-off above its attachment). */
static bool part_filename(span sp, span *name)
{
    if (sp.n < 21 || strncasecmp(sp.s, "Content-Disposition:", 20) != 0)
        return false;
    const char *f = NULL;
    for (const char *p = sp.s + 20; p + 9 <= sp.s + sp.n && !f; p++)
        if (!strncasecmp(p, "filename", 8) && (p[8] == '=' || p[8] == '*'))
            f = p + 8;
    if (!f)
        return false;
    const char *e = sp.s + sp.n, *eq = memchr(f, '=', (size_t)(e - f));
    if (!eq)
        return false;
    const char *v = eq + 1;
    if (*f == '*') { /* charset'language'value */
        const char *q = memchr(v, '\'', (size_t)(e - v));
        const char *q2 = q ? memchr(q + 1, '\'', (size_t)(e - q - 1)) : NULL;
        if (q2)
            v = q2 + 1;
    }
    if (v < e && *v == '"') {
        v++;
        const char *close = memchr(v, '"', (size_t)(e - v));
        *name = (span){v, (size_t)((close ? close : e) - v)};
    } else {
        const char *stop = v;
        while (stop < e && *stop != ';' && *stop != ' ')
            stop++;
        *name = (span){v, (size_t)(stop - v)};
    }
    *name = trim(*name);
    return name->n > 0;
}

/* The name in "==> fio-read.log <==", the line `tail` and `head` print above each
 * file when given several (`tail -n +1 *.log`): the caption of the file below. A
 * caption, not a title: pasted under an article's "## Box A", the runs of each file
 * are still Box A's (the systems a pivot tells apart by heading). */
static bool file_banner(span sp, span *name)
{
    if (!fsc_file_banner(sp.s, sp.n))
        return false;
    *name = trim((span){sp.s + 4, sp.n - 8});
    return name->n > 0;
}

/* Is line i (not in a fence) a heading? `limit` is the first line not to look at. */
static bool heading_at(const fsc_text *t, size_t i, size_t limit, size_t first_text, above_kind above,
                       heading *h)
{
    /* is the line above blank, or the start of the document (line 0 of a text that
     * has nothing above it)? */
    bool blank_above = i ? is_blank(t, i - 1) : above == ABOVE_BLANK;
    span sp = trim(line_span(t, i));
    if (!sp.n || (t->lines[i].flags & (FSC_LINE_FENCE | FSC_LINE_GUTTER)))
        return false;
    /* Most lines of fio output hold a '=': then only the headings marked by their
     * first character ("# x", "[-- Attachment", "**x**", a MIME part's filename) remain
     * possible, as every other kind needs title_like, which refuses a '=' (an outline
     * number has none). */
    h->line = i;
    if ((sp.s[0] == 'C' || sp.s[0] == 'c') && part_filename(sp, &h->text)) {
        h->level = LEVEL_CAPTION;
        return true;
    }
    if (sp.s[0] == '=' && file_banner(sp, &h->text)) {
        h->level = LEVEL_CAPTION;
        return true;
    }
    if (sp.s[0] != '#' && sp.s[0] != '[' && sp.s[0] != '*' && memchr(sp.s, '=', sp.n))
        return false;
    if (atx_heading(line_span(t, i), h))
        return true;
    if (attachment_marker(sp, &h->text)) {
        h->level = LEVEL_CAPTION;
        return true;
    }
    title_memo tm = {sp, -1};
    /* underlined with === or --- */
    if (i + 1 < limit && title_like_memo(&tm, TITLE_MAX)) {
        span u = trim(line_span(t, i + 1));
        size_t k = 0;
        while (k < u.n && u.s[k] == u.s[0])
            k++;
        if (u.n >= 3 && k == u.n && (u.s[0] == '=' || u.s[0] == '-')) {
            h->level = u.s[0] == '=' ? 1 : 2;
            h->text = sp;
            return true;
        }
    }
    size_t numlen;
    int depth = outline_number(sp, &numlen);
    if (depth && title_like((span){sp.s + numlen, sp.n - numlen}, TITLE_MAX) && blank_above &&
        blank_or_edge(t, i + 1, limit)) {
        h->level = depth;
        h->text = sp;
        return true;
    }
    if (sp.n > 4 && sp_starts(sp, "**") && sp_ends(sp, "**") && !memchr(sp.s + 2, '*', sp.n - 4)) {
        h->level = LEVEL_BOLD;
        h->text = strip_colon(trim((span){sp.s + 2, sp.n - 4}));
        return h->text.n > 0;
    }
    if (i == first_text && title_like_memo(&tm, TITLE_MAX) && blank_or_edge(t, i + 1, limit)) {
        h->level = LEVEL_TITLE;
        h->text = strip_colon(sp);
        return true;
    }
    if (!title_like_memo(&tm, CAPTION_MAX) || count_words(sp) > CAPTION_WORDS)
        return false;
    bool before_command = i + 1 < limit && is_command(line_span(t, i + 1));
    if ((blank_or_edge(t, i + 1, limit) || before_command) &&
        (blank_above || (i ? (t->lines[i - 1].flags & FSC_LINE_FENCE) != 0 : above == ABOVE_FENCE) ||
         before_command)) {
        h->level = LEVEL_CAPTION;
        h->text = strip_colon(sp);
        return h->text.n > 0;
    }
    return false;
}

void fsc_outline_free(struct fsc_outline *o)
{
    if (!o)
        return;
    free(o->heads);
    free(o->top_before);
    free(o->above);
    free(o);
}

/* A new outline for t with no heading yet, over what carry (may be NULL) brings. */
static struct fsc_outline *outline_alloc(const fsc_text *t, const fsc_carry *carry)
{
    struct fsc_outline *o = calloc(1, sizeof *o);
    if (!o || !(o->top_before = calloc(t->n_lines + 1, sizeof *o->top_before)))
        goto fail;
    o->carry = carry;
    if (carry && carry->n_heads) {
        if (!(o->above = calloc(carry->n_heads, sizeof *o->above)))
            goto fail;
        for (size_t k = 0; k < carry->n_heads; k++) {
            heading *h = &o->above[k];
            h->line = LINE_ABOVE;
            h->level = carry->heads[k].level;
            h->text = (span){carry->heads[k].text, strlen(carry->heads[k].text)};
        }
        o->n_above = carry->n_heads;
    }
    o->end_text_seen = carry && carry->text_seen;
    o->end_fenced = carry && carry->fenced;
    o->end_top_last = carry && carry->top_last;
    o->top = o->end_last = carry ? carry->last : ABOVE_BLANK;
    return o;
fail:
    fsc_outline_free(o);
    return NULL;
}

/* A heading of level `level` that reaches the bottom of the text's stack closes the
 * carried headings of that level or deeper, down from *in_force (how many are still
 * in force); the innermost is kept when it is the last line of text above and of the
 * same level (a heading over two lines). */
static void close_above(const struct fsc_outline *o, int level, bool text_before, size_t *in_force)
{
    while (*in_force && o->above[*in_force - 1].level >= level) {
        if (o->above[*in_force - 1].level == level && *in_force == o->n_above && !text_before &&
            o->carry->top_last)
            break;
        --*in_force;
    }
}

/* What the text's last line is to the piece below it (end_last): until then, what
 * was above the text (no line: it stays). */
static void end_last_line(struct fsc_outline *o, const fsc_text *t)
{
    if (!t->n_lines)
        return;
    size_t i = t->n_lines - 1;
    span sp = line_span(t, i);
    if (t->lines[i].flags & FSC_LINE_FENCE)
        o->end_last = ABOVE_FENCE;
    else if (is_blank(t, i))
        o->end_last = ABOVE_BLANK;
    else
        o->end_last = is_fio_output(trim(sp)) ? ABOVE_FIO : ABOVE_TEXT;
}

static struct fsc_outline *outline_new(const fsc_text *t, const fsc_carry *carry)
{
    struct fsc_outline *o = outline_alloc(t, carry);
    if (!o)
        return NULL;
    size_t first_text = SIZE_MAX, last_nonblank = SIZE_MAX, in_force = o->n_above;
    /* the title is the document's first text: never in a piece after text */
    bool fenced = o->end_fenced, titled = o->end_text_seen;
    uint32_t top = 0;
    for (size_t i = 0; i < t->n_lines; i++) {
        o->top_before[i] = top;
        if (t->lines[i].flags & FSC_LINE_FENCE) {
            fenced = !fenced;
            continue;
        }
        if (is_blank(t, i))
            continue;
        if (first_text == SIZE_MAX)
            first_text = i;
        heading h;
        if (!fenced && heading_at(t, i, t->n_lines, titled ? SIZE_MAX : first_text, o->top, &h)) {
            uint32_t p = top;
            while (p && o->heads[p - 1].level >= h.level) {
                const heading *up = &o->heads[p - 1];
                if (up->level == h.level && up->line == last_nonblank)
                    break; /* a heading written over two lines: keep both */
                p = up->parent;
            }
            if (!p)
                close_above(o, h.level, last_nonblank != SIZE_MAX, &in_force);
            h.parent = p;
            h.keep = (uint32_t)in_force;
            heading *slot = FSC_PUSH(o->heads, o->n_heads, o->cap_heads);
            if (!slot) {
                fsc_outline_free(o);
                return NULL;
            }
            *slot = h;
            top = (uint32_t)o->n_heads;
        }
        last_nonblank = i;
    }
    o->top_before[t->n_lines] = top;
    o->end_fenced = fenced;
    end_last_line(o, t);
    if (last_nonblank != SIZE_MAX) {
        o->end_text_seen = true;
        o->end_top_last = top && o->heads[top - 1].line == last_nonblank;
    }
    return o;
}

fsc_status fsc_outline_empty(fsc_text *t, const fsc_carry *carry)
{
    fsc_outline_free(t->outline);
    t->outline = outline_alloc(t, carry);
    /* no heading and no fence here (the pre-scan's word): only whether there is text,
     * for the pieces below this one (the first piece of a file has no carry, but its
     * text still makes a heading after it no title) */
    if (!t->outline)
        return FSC_E_NOMEM;
    for (size_t i = 0; i < t->n_lines; i++)
        if (!is_blank(t, i)) {
            t->outline->end_text_seen = true;
            t->outline->end_top_last = false;
            break;
        }
    end_last_line(t->outline, t);
    return FSC_OK;
}

fsc_status fsc_outline_build(fsc_text *t, const fsc_carry *carry)
{
    fsc_outline_free(t->outline);
    t->outline = outline_new(t, carry);
    return t->outline ? FSC_OK : FSC_E_NOMEM;
}

/* The headings in force at line `first`, innermost first, at most max of them:
 * those of the text, then those carried from above it that are still in force. */
static size_t headings_in_force(const struct fsc_outline *o, size_t first, heading *rev, size_t max)
{
    size_t n = 0, keep = o->n_above;
    uint32_t p = o->top_before[first];
    for (; p && n < max; p = o->heads[p - 1].parent) {
        rev[n++] = o->heads[p - 1];
        keep = o->heads[p - 1].keep;
    }
    for (size_t k = keep; !p && k-- > 0 && n < max;)
        rev[n++] = o->above[k];
    return n;
}

/* The chain of headings in force at line `first` (outermost first, at most the
 * MAX_CHAIN innermost). */
static size_t heading_chain(const struct fsc_outline *o, size_t first, heading *chain)
{
    heading rev[MAX_CHAIN];
    size_t n = headings_in_force(o, first, rev, MAX_CHAIN);
    for (size_t i = 0; i < n; i++)
        chain[i] = rev[n - 1 - i];
    return n;
}

/* ---- the command line or job file shown before the run ---- */

/* A line that continues a command without a '\\': a soft wrap of a long command
 * ("...--runtime=60" / "s --ramp_time=2s --direct=1"). */
static bool soft_continuation(span next)
{
    next = trim(next);
    return next.n && !is_fio_output(next) && !is_command(next) && (sp_starts(next, "-") || sp_has(next, " --"));
}

/* Append a command fragment; " \\--x" (a continuation that lost its newline) becomes
 * " --x" and runs of spaces become one. */
static void add_fragment(fsc_buf *out, span sp)
{
    for (size_t k = 0; k < sp.n; k++) {
        if (sp.s[k] == '\\' && k + 1 < sp.n && sp.s[k + 1] == '-' && (k == 0 || sp.s[k - 1] == ' '))
            continue;
        if (sp.s[k] == ' ' && out->len && out->data[out->len - 1] == ' ')
            continue; /* "fio  --rw" */
        fsc_buf_putc(out, sp.s[k]);
    }
}

/* Join a command written over several lines ('\\' continuations, soft wraps). */
static void command_text(const fsc_text *t, size_t i, size_t limit, fsc_buf *out)
{
    span sp = trim(line_span(t, i));
    long at = command_start(sp); /* >= 0: the caller checked is_command() */
    sp.s += at;
    sp.n -= (size_t)at;
    bool space = true;
    for (;;) {
        bool cont = sp_ends(sp, "\\");
        if (cont)
            sp.n--;
        sp = trim(sp);
        if (sp.n) {
            if (out->len && space)
                fsc_buf_putc(out, ' ');
            add_fragment(out, sp);
        }
        if (++i >= limit)
            break;
        span next = line_span(t, i);
        if (!cont && !soft_continuation(next))
            break;
        /* a soft wrap inside a token ("60" + "s --ramp") joins without a space */
        space = cont || sp_starts(trim(next), "-");
        sp = trim(next);
    }
}

/* The job file block whose last option line is `last`: from its first section on. Blank
 * lines between sections belong to it ([global], an empty line, then [job]). */
static void jobfile_text(const fsc_text *t, size_t last, fsc_buf *out)
{
    size_t start = last;
    for (;;) {
        while (start > 0 && (is_job_option(line_span(t, start - 1)) || is_section(line_span(t, start - 1))))
            start--;
        /* a section starts here; an earlier block of the same file ends in an option line */
        size_t b = start;
        while (b > 0 && trim(line_span(t, b - 1)).n == 0)
            b--;
        if (b == start || b == 0 || !is_section(line_span(t, start)) || !is_job_option(line_span(t, b - 1)))
            break;
        size_t s = b - 1;
        while (s > 0 && is_job_option(line_span(t, s - 1)))
            s--;
        if (s == 0 || !is_section(line_span(t, s - 1)))
            break;
        start = s - 1;
    }
    while (start < last && !is_section(line_span(t, start)))
        start++;
    for (size_t i = start; i <= last; i++) {
        span sp = trim(line_span(t, i));
        if (!sp.n)
            continue;
        if (out->len)
            fsc_buf_putc(out, '\n');
        fsc_buf_add(out, sp.s, sp.n);
    }
}

/* Search upwards from the run for the nearest command or job file, not above
 * `floor` (the nearest heading) nor above the end of an earlier run. Where the
 * search would go on above the text (a piece of a file), it finds what the same
 * search found from the end of the text above (above: the carry, may be NULL). */
static void find_command(const fsc_text *t, size_t first, size_t floor, const fsc_carry *above, fsc_buf *out)
{
    /* the run's own first line may be the echoed command */
    if (first < t->n_lines && is_command(line_span(t, first))) {
        command_text(t, first, t->n_lines, out);
        return;
    }
    /* the first line of the stretch of job-option lines that holds line i, once
     * found, serves every line of that stretch: one walk, not one per line */
    size_t opt_first = SIZE_MAX;
    for (size_t i = first; i-- > floor;) {
        span sp = line_span(t, i);
        if (ends_a_run(sp))
            return;
        if (is_command(sp)) {
            command_text(t, i, first, out);
            return;
        }
        if (is_job_option(sp) && !is_fio_output(sp)) {
            size_t s = i;
            if (opt_first != SIZE_MAX && opt_first <= i) {
                s = opt_first;
            } else {
                while (s > floor && is_job_option(line_span(t, s - 1)))
                    s--;
                opt_first = s;
            }
            if (s > floor && is_section(line_span(t, s - 1))) {
                jobfile_text(t, i, out);
                return;
            }
        }
        if (is_section(sp) && i + 1 < first && is_job_option(line_span(t, i + 1))) {
            size_t e = i + 1;
            while (e + 1 < first && (is_job_option(line_span(t, e + 1)) || is_section(line_span(t, e + 1))))
                e++;
            jobfile_text(t, e, out);
            return;
        }
    }
    if (floor == 0 && above && above->command)
        fsc_buf_puts(out, above->command);
}

/* Where the command search of a run under these headings stops: below the nearest
 * outline heading; captions and the title are weak (a caption often stands just
 * above the command it names), and a carried heading lies above the text (0). */
static size_t command_floor(const heading *chain, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (chain[i].level != LEVEL_CAPTION && chain[i].level != LEVEL_TITLE)
            return chain[i].line == LINE_ABOVE ? 0 : chain[i].line + 1;
    return 0;
}

static bool add_context(fsc_run *run, span sp)
{
    char *s = malloc(sp.n + 1);
    if (!s)
        return false;
    memcpy(s, sp.s, sp.n);
    s[sp.n] = 0;
    bool ok = fsc_run_add_context(run, s);
    free(s);
    return ok;
}

/* A label right above the run's first line ("Before:", "After:" over the result
 * lines a mail compares), after a blank line or fio's lines of the run before: the
 * run's innermost context, its own alone (no heading: it heads no run below). */
static bool run_label(const fsc_text *t, size_t first, above_kind above, span *out)
{
    if (first == 0 || first > t->n_lines || (t->lines[first - 1].flags & (FSC_LINE_FENCE | FSC_LINE_GUTTER)))
        return false;
    size_t i = first - 1;
    span sp = trim(line_span(t, i));
    if (!(sp_ends(sp, ":") || sp_ends(sp, "\xef\xbc\x9a")) || sp_ends(sp, "::") || !title_like(sp, CAPTION_MAX) ||
        count_words(sp) > CAPTION_WORDS)
        return false;
    if (i ? !is_blank(t, i - 1) && !is_fio_output(line_span(t, i - 1)) : above != ABOVE_BLANK && above != ABOVE_FIO)
        return false;
    *out = strip_colon(sp);
    return out->n > 0;
}

fsc_status fsc_context_collect(const fsc_text *t, size_t first, fsc_run *run)
{
    return fsc_context_collect_below(t, first, 0, run);
}

fsc_status fsc_context_collect_below(const fsc_text *t, size_t first, size_t floor, fsc_run *run)
{
    heading chain[MAX_CHAIN];
    if (first > t->n_lines)
        first = t->n_lines;
    struct fsc_outline *own = NULL;
    const struct fsc_outline *o = t->outline;
    if (!o && !(o = own = outline_new(t, NULL)))
        return FSC_E_NOMEM;
    size_t n = heading_chain(o, first, chain);
    const fsc_carry *above = o->carry;
    above_kind top = o->top;
    fsc_outline_free(own);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++)
        ok = add_context(run, chain[i].text);
    span label;
    if (ok && run_label(t, first, top, &label) && !(n && chain[n - 1].line == first - 1))
        ok = add_context(run, label);
    if (!ok)
        return FSC_E_NOMEM;
    run->context_titled = n && chain[0].level == LEVEL_TITLE;
    fsc_buf cmd = {0};
    size_t from = command_floor(chain, n);
    find_command(t, first, floor > from && floor <= first ? floor : from, above, &cmd);
    if (cmd.oom) {
        fsc_buf_free(&cmd);
        return FSC_E_NOMEM;
    }
    if (cmd.len) {
        if (!fsc_run_add_context(run, cmd.data)) {
            fsc_buf_free(&cmd);
            return FSC_E_NOMEM;
        }
        free(run->command);
        run->command = cmd.data;
    } else {
        fsc_buf_free(&cmd);
    }
    return FSC_OK;
}

/* ---- what a piece hands on to the next ---- */

void fsc_carry_free(fsc_carry *c)
{
    if (!c)
        return;
    for (size_t k = 0; k < c->n_heads; k++)
        free(c->heads[k].text);
    free(c->heads);
    free(c->command);
    free(c);
}

static char *span_dup(span sp)
{
    char *s = malloc(sp.n + 1);
    if (s) {
        memcpy(s, sp.s, sp.n);
        s[sp.n] = 0;
    }
    return s;
}

/* The stack in force at the end of t, each level's MAX_CHAIN innermost, into c
 * (outermost first). False: out of memory. Plain malloc: the carry outlives the
 * piece whose memory budget is in force. */
static bool carry_heads(const struct fsc_outline *o, size_t end, fsc_carry *c)
{
    size_t depth = o->n_above;
    for (uint32_t p = o->top_before[end]; p; p = o->heads[p - 1].parent)
        depth++;
    heading *rev = malloc((depth + 1) * sizeof *rev);
    c->heads = calloc(depth + 1, sizeof *c->heads);
    bool ok = rev && c->heads;
    size_t n = ok ? headings_in_force(o, end, rev, depth) : 0, per_level[LEVEL_CAPTION + 1] = {0}, kept = 0;
    for (size_t i = 0; i < n; i++) /* innermost first: is it among its level's MAX_CHAIN innermost? */
        if (per_level[rev[i].level]++ < MAX_CHAIN)
            rev[kept++] = rev[i];
    for (size_t i = kept; ok && i-- > 0;) { /* outermost first */
        c->heads[c->n_heads].level = rev[i].level;
        ok = (c->heads[c->n_heads].text = span_dup(rev[i].text)) != NULL;
        c->n_heads += ok;
    }
    free(rev);
    return ok;
}

fsc_carry *fsc_context_carry(const fsc_text *t)
{
    const struct fsc_outline *o = t->outline;
    fsc_carry *c = o ? calloc(1, sizeof *c) : NULL;
    if (!c)
        return NULL;
    c->text_seen = o->end_text_seen;
    c->fenced = o->end_fenced;
    c->top_last = o->end_top_last;
    c->last = o->end_last;
    heading chain[MAX_CHAIN];
    size_t n = heading_chain(o, t->n_lines, chain);
    fsc_buf cmd = {0};
    find_command(t, t->n_lines, command_floor(chain, n), o->carry, &cmd);
    bool ok = !cmd.oom && carry_heads(o, t->n_lines, c);
    if (ok && cmd.len)
        ok = (c->command = span_dup((span){cmd.data, cmd.len})) != NULL;
    fsc_buf_free(&cmd);
    if (!ok) {
        fsc_carry_free(c);
        return NULL;
    }
    return c;
}

/* ---- labels ---- */

static const char label_sep[] = " \xe2\x80\xba "; /* " › " */

/* A heading as it appears in a label: without its outline number ("2.2 4k 随机写"
 * → "4k 随机写"); the context keeps the number, the label is short. */
static span label_heading(const char *s)
{
    span sp = trim((span){s, strlen(s)});
    size_t numlen;
    if (outline_number(sp, &numlen) && numlen < sp.n)
        sp = (span){sp.s + numlen, sp.n - numlen};
    return sp;
}

static void label_add(fsc_buf *b, const char *s, size_t n)
{
    if (!n)
        return;
    if (b->len)
        fsc_buf_puts(b, label_sep);
    fsc_buf_add(b, s, n);
}

char *fsc_job_label(const fsc_run *run, const fsc_job *job, fsc_label_from from)
{
    fsc_buf b = {0};
    const char *jobname = job && job->jobname ? job->jobname : NULL;
    size_t n_head = run->n_context - (run->command && run->n_context ? 1 : 0);
    switch (from) {
    case FSC_LABEL_FILE:
        if (run->source.path) {
            const char *base = strrchr(run->source.path, '/');
            base = base ? base + 1 : run->source.path;
            label_add(&b, base, strlen(base));
        }
        if (run->source.member)
            label_add(&b, run->source.member, strlen(run->source.member));
        break;
    case FSC_LABEL_CONTEXT:
        for (size_t i = 0; i < run->n_context; i++)
            label_add(&b, run->context[i], strlen(run->context[i]));
        break;
    case FSC_LABEL_JOB:
        break;
    case FSC_LABEL_HEADING:
    default:
        /* the two innermost headings (the command line is not a heading); the
         * document title only when there is no other heading */
        for (size_t i = n_head > 2 ? n_head - 2 : 0; i < n_head; i++) {
            if (i == 0 && run->context_titled && n_head > 1)
                continue;
            span h = label_heading(run->context[i]);
            bool same_as_job = jobname && h.n == strlen(jobname) && memcmp(h.s, jobname, h.n) == 0;
            if (!same_as_job)
                label_add(&b, h.s, h.n);
        }
        break;
    }
    if (jobname && !b.len) { /* the job's name alone (most runs): a copy of it, no buffer */
        fsc_buf_free(&b);
        return fsc_strdup(jobname);
    }
    if (jobname)
        label_add(&b, jobname, strlen(jobname));
    if (b.oom) {
        fsc_buf_free(&b);
        return NULL;
    }
    return b.data ? b.data : fsc_strdup("");
}

size_t fsc_heading_number_len(const char *s, size_t n)
{
    size_t len = 0;
    return outline_number((span){s, n}, &len) ? len : 0;
}
