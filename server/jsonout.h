/* SPDX-License-Identifier: MIT */
/* jsonout.h - prints cJSON trees and numbers exactly as cJSON does, faster. */
#ifndef PZ_SERVER_JSONOUT_H
#define PZ_SERVER_JSONOUT_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Longest text jsonout_number writes, with its NUL. */
#define JSONOUT_NUMBER_MAX 32

/*
 * Prints item as cJSON_PrintUnformatted would, byte for byte (the reply
 * bodies and the OpenAPI checks depend on that text). Returns an owned
 * NUL-terminated buffer (free) and its length in *len, or NULL when out of
 * memory or for a tree cJSON would not print either (a raw item without
 * text, an invalid type). Thread: any.
 */
char *jsonout_print(const cJSON *item, size_t *len);

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
