/* ferry_places: the folders and archives a job looks files up in, each
 * opened once per path and cached (archive.h). */
#include "archive_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct slot {
    ferry_place place;
    bool folder;
    ferry_archive *archive;
    ferry_file_source folder_source; /* a folder's */
    ferry_file_source cached;
} slot;

struct ferry_places {
    fy_mutex lock;
    slot **slots;
    size_t count, capacity;
};

ferry_places *ferry_places_new(void)
{
    ferry_places *p = calloc(1, sizeof *p);
    if (p && fy_mutex_init(&p->lock) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

static void slot_free(slot *s)
{
    if (!s) return;
    ferry_file_source_close(&s->cached);
    ferry_file_source_close(&s->folder_source);
    ferry_archive_free(s->archive);
    free((char *)s->place.path);
    free(s);
}

void ferry_places_free(ferry_places *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->count; i++) slot_free(p->slots[i]);
    free(p->slots);
    fy_mutex_destroy(&p->lock);
    free(p);
}

static void set_nomem(ferry_error *err) { fy_error_set(err, FERRY_ERR_NOMEM, FERRY_NO_OFFSET, NULL, "out of memory"); }

/* Opens `path`: a folder when `folder`, else an archive. NULL with err. */
static slot *slot_open(const char *path, bool folder, ferry_error *err)
{
    slot *s = calloc(1, sizeof *s);
    size_t n = strlen(path) + 1;
    char *copy = malloc(n);
    if (!s || !copy) {
        free(s), free(copy);
        set_nomem(err);
        return NULL;
    }
    memcpy(copy, path, n);
    s->place.path = copy;
    s->folder = folder;
    const ferry_file_source *inner = &s->folder_source;
    if (folder) {
        if (ferry_file_source_folder(path, &s->folder_source, err) != FERRY_OK) goto fail;
    } else {
        ferry_format content;
        ferry_error ignored; /* a file whose head cannot be read: its name tells, the open says what is wrong */
        if (fy_archive_format_of_file(path, &content, &ignored) == FERRY_FORMAT_UNKNOWN) {
            char names[64];
            fy_archive_format_names(names, sizeof names);
            fy_error_set(err, FERRY_ERR_UNSUPPORTED, FERRY_NO_OFFSET, NULL,
                         "neither a folder nor an archive ferry reads (%s)", names);
            goto fail;
        }
        /* Mapped, not read: an archive of gigabytes costs only the pages
         * its tables and the entries used touch. */
        if (ferry_archive_open(path, NULL, &s->archive, err) != FERRY_OK) goto fail;
        inner = ferry_archive_source(s->archive);
        s->place.archive = s->archive;
        s->place.prefix = ferry_archive_prefix(s->archive);
    }
    if (ferry_file_source_cached(inner, &s->cached, err) != FERRY_OK) goto fail;
    s->place.source = &s->cached;
    return s;
fail:
    slot_free(s);
    return NULL;
}

static const ferry_place *get(ferry_places *p, const char *path, bool folder, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (!p || !path) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no places or no path");
        return NULL;
    }
    fy_mutex_lock(&p->lock);
    slot *found = NULL;
    for (size_t i = 0; i < p->count && !found; i++)
        if (p->slots[i]->folder == folder && strcmp(p->slots[i]->place.path, path) == 0) found = p->slots[i];
    if (!found && p->count == p->capacity) {
        size_t cap = p->capacity ? 2 * p->capacity : 16;
        slot **slots = realloc(p->slots, cap * sizeof *slots);
        if (slots) {
            p->slots = slots;
            p->capacity = cap;
        }
    }
    if (!found && p->count == p->capacity)
        set_nomem(err);
    else if (!found && (found = slot_open(path, folder, err)))
        p->slots[p->count++] = found;
    fy_mutex_unlock(&p->lock);
    return found ? &found->place : NULL;
}

const ferry_place *ferry_places_folder(ferry_places *p, const char *path, ferry_error *err)
{
    return get(p, path, true, err);
}

const ferry_place *ferry_places_open(ferry_places *p, const char *path, ferry_error *err)
{
    fy_file_info info;
    bool folder = path && fy_path_info(path, true, &info) == 0 && info.kind == FY_KIND_FOLDER;
    return get(p, path, folder, err);
}

ferry_result ferry_places_kind(const char *path, ferry_place_kind *kind, ferry_error *err)
{
    if (err) fy_error_clear(err);
    if (kind) *kind = FERRY_PLACE_NONE;
    if (!path || !kind) {
        fy_error_set(err, FERRY_ERR_ARGUMENT, FERRY_NO_OFFSET, NULL, "no path or no place for the answer");
        return FERRY_ERR_ARGUMENT;
    }
    fy_file_info info;
    int code = fy_path_info(path, true, &info);
    if (code) {
        char words[256];
        fy_error_set(err, FERRY_ERR_IO, FERRY_NO_OFFSET, NULL, "%s", fy_sys_message(code, words, sizeof words));
        return FERRY_ERR_IO;
    }
    ferry_format content;
    ferry_error ignored;
    if (info.kind == FY_KIND_FOLDER)
        *kind = FERRY_PLACE_FOLDER;
    else if (fy_archive_format_of_file(path, &content, &ignored) != FERRY_FORMAT_UNKNOWN)
        *kind = FERRY_PLACE_ARCHIVE;
    return FERRY_OK;
}
