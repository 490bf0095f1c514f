/* SPDX-License-Identifier: MIT */
/* jsonout.h - JSON text as cJSON prints it: trees, numbers, and replies
 * written straight into a buffer without building a tree. */
#ifndef PZ_API_JSONOUT_H
#define PZ_API_JSONOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for the decimal text of any uint64_t and its NUL. */
#define JSONOUT_U64_MAX 21

/* Writes the decimal digits of v and a NUL to out; returns the length.
 * Thread: any. */
size_t jsonout_format_u64(uint64_t v, char out[JSONOUT_U64_MAX]);

/* Longest text jsonout_number writes, with its NUL. */
#define JSONOUT_NUMBER_MAX 32

/*
 * A writer of compact JSON text, the same bytes cJSON_PrintUnformatted
 * prints for the tree the calls describe (numbers, escapes, no spaces).
 * A reply written this way costs no allocation per member: the job object,
 * rendered for every reply, has about 45. Members are written in order;
 * key is the member name inside an object and NULL for array elements and
 * the top value. After a failure (out of memory, or a tree cJSON would not
 * print) further calls do nothing and jsonout_finish returns NULL.
 */
typedef struct jsonout {
    char *data; /* the text so far, owned; NULL after a failure */
    size_t len;
    size_t cap;
    bool failed;
    bool comma; /* the next value needs a comma in front */
} jsonout_t;

/* Starts an empty text. Thread: the writer belongs to its caller. */
void jsonout_init(jsonout_t *w);

/* Returns the text (owned, NUL-terminated; free) and its length, or NULL
 * after a failure; either way w holds nothing afterwards. */
char *jsonout_finish(jsonout_t *w, size_t *len);

/* Opens an object ('{') or array ('['); jsonout_end closes it ('}', ']'). */
void jsonout_begin(jsonout_t *w, const char *key, char open);
void jsonout_end(jsonout_t *w, char close);

/* Scalars: a string (NULL prints as ""), an exact unsigned integer (cJSON
 * would print a double and lose digits past 2^53), a number as cJSON prints
 * a double, true/false, null. */
void jsonout_string(jsonout_t *w, const char *key, const char *s);
void jsonout_u64(jsonout_t *w, const char *key, uint64_t v);
void jsonout_double(jsonout_t *w, const char *key, double d);
void jsonout_bool(jsonout_t *w, const char *key, bool v);
void jsonout_null(jsonout_t *w, const char *key);

/* Writes text as the value when it is a JSON array or string (parsed
 * and printed compactly); returns false, writing nothing, when it is not
 * one. */
bool jsonout_json(jsonout_t *w, const char *key, const char *text);

/* Writes text, a whole JSON value this process rendered before (a job
 * kept as text in a job store), as the value as it is. */
void jsonout_raw(jsonout_t *w, const char *key, const char *text);

/*
 * Writes to out the text cJSON prints for a number item holding d, whose
 * valueint is vi (cJSON keeps both): "null" for NaN and infinities, else
 * d with 15 significant digits, or 17 when 15 do not read back (a whole
 * number equal to vi is written from vi: the same digits). Returns the
 * length. Thread: any.
 */
size_t jsonout_number(double d, int vi, char out[JSONOUT_NUMBER_MAX]);

/* Length of the run of characters at s that a JSON string carries as they
 * are: up to the first quote, backslash, control character or NUL. */
size_t jsonout_plain_run(const char *s);

/* Writes into out the escape cJSON prints for ch, a character
 * jsonout_plain_run stops at (not NUL), and returns its length (2 or 6). */
size_t jsonout_escape(unsigned char ch, char out[6]);

/* The valueint cJSON stores for a number d (saturated to int). */
int jsonout_valueint(double d);

#endif
