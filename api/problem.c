/* SPDX-License-Identifier: MIT */
/* problem.c - converts a pz_diag_t into an application/problem+json body. */
#include "problem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_json.h"

cJSON *
api_problem(int rc, const pz_diag_t *d)
{
    cJSON *o = cJSON_CreateObject();
    char type[96];
    const char *detail;

    if (o == NULL) {
        return NULL;
    }
    if (d != NULL && d->rc != PZ_OK) {
        rc = d->rc;
    }
    detail = d != NULL && d->detail[0] != '\0' ? d->detail : pz_errtitle(rc);
    snprintf(type, sizeof(type), "/problems/%s", pz_strerror(rc));
    if (cJSON_AddStringToObject(o, "type", type) == NULL ||
        cJSON_AddStringToObject(o, "title", pz_errtitle(rc)) == NULL ||
        cJSON_AddNumberToObject(o, "status", pz_http_status(rc)) == NULL ||
        cJSON_AddStringToObject(o, "detail", detail) == NULL ||
        cJSON_AddStringToObject(o, "code", pz_strerror(rc)) == NULL) {
        goto fail;
    }
    if (d != NULL && d->field[0] != '\0' &&
        cJSON_AddStringToObject(o, "field", d->field) == NULL) {
        goto fail;
    }
    if (d != NULL && d->position >= 0 &&
        cJSON_AddNumberToObject(o, "position", d->position) == NULL) {
        goto fail;
    }
    return o;
fail:
    cJSON_Delete(o);
    return NULL;
}

char *
api_problem_text(int rc, const pz_diag_t *d, bool pretty, size_t *len)
{
    cJSON *root = api_problem(rc, d);
    char *text = NULL;

    if (root != NULL && pretty) {
        char *printed = cJSON_Print(root);

        /* cJSON's own buffer: copied so that the caller frees with free. */
        if (printed != NULL) {
            *len = strlen(printed);
            text = malloc(*len + 1);
            if (text != NULL) {
                memcpy(text, printed, *len + 1);
            }
            cJSON_free(printed);
        }
    } else if (root != NULL) {
        text = jsonout_print(root, len);
    }
    cJSON_Delete(root);
    return text;
}
