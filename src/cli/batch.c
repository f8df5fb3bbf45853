/* ferry convert -r DIR|ARCHIVE OUTDIR: the library's tree export
 * (ferry_export_tree), printed: each model's messages in order, the JSON
 * report (--json), the summary. */
#define _DEFAULT_SOURCE
#include "export.h"
#include "formats.h"

#include <stdlib.h>
#include <string.h>

typedef struct batch_print {
    bool quiet;
    json_t *files;     /* --json: an object per model */
    ferry_buffer logs; /* every model's messages, printed after the progress bar */
    cli_progress progress;
} batch_print;

/* With --quiet, the Alamo family's conversion findings (textures not
 * found...) were counted, not listed, even in the JSON report's messages. */
static bool quieted(const batch_print *b, const ferry_export_item *item, const ferry_message *m)
{
    ferry_format f = item->report->format;
    return b->quiet && (f == FERRY_FORMAT_ALO_MODEL || f == FERRY_FORMAT_ALO_PARTICLE) &&
           m->kind == FERRY_MESSAGE_WARNING && cli_message_is_finding(m);
}

static void on_item(void *user, const ferry_export_item *item)
{
    batch_print *b = user;
    ferry_buffer text = {0};
    for (size_t i = 0; i < item->message_count; i++)
        if (!quieted(b, item, &item->messages[i])) cli_message_text(&text, "convert", &item->messages[i]);
    if (item->ok) cli_export_report_lines(&text, item->input, item->report, false);
    /* A string (NULL when it could not be had whole, as if said nothing). */
    const char *log = ferry_buffer_append(&text, "", 1) ? (const char *)text.data : NULL;
    if (log) ferry_buffer_append(&b->logs, log, text.size - 1);
    if (b->files) {
        const ferry_export_report *r = item->report;
        json_t *o = json_object();
        cli_json_set_text(o, "input", item->input);
        cli_json_set_text(o, "output", item->ok ? item->output : NULL);
        json_object_set_new(o, "ok", json_boolean(item->ok));
        json_object_set_new(o, "warnings", json_integer((json_int_t)r->warnings));
        json_object_set_new(o, "animations", json_integer(item->ok ? (json_int_t)r->animations : 0));
        json_object_set_new(o, "images", json_integer(item->ok ? (json_int_t)r->images : 0));
        json_object_set_new(o, "meshes_left_out", json_integer((json_int_t)r->meshes_left_out));
        json_t *missing = json_array();
        json_object_set_new(o, "missing_textures", missing);
        for (size_t k = 0; k < r->missing_texture_count; k++)
            cli_json_append_text(o, "missing_textures", missing, r->missing_textures[k]);
        cli_json_set_text(o, "messages", log ? log : "");
        json_array_append_new(b->files, o);
    }
    ferry_buffer_free(&text);
}

static void on_message(void *user, const ferry_message *m)
{
    (void)user;
    cli_fprint_message(stderr, "convert", m);
}

/* The textures missing over the batch, each name once (the library's
 * list), so that a modder sees which files to find. */
static void print_missing(const ferry_export_tree_report *t)
{
    if (!t->missing_texture_count) return;
    fprintf(stderr, "%zu texture%s missing:", t->missing_texture_count, t->missing_texture_count == 1 ? "" : "s");
    for (size_t i = 0; i < t->missing_texture_count; i++) fprintf(stderr, " %s", t->missing_textures[i]);
    fputc('\n', stderr);
}

int export_batch(const char *in, const char *out_dir, const cli_convert_options *co, bool quiet, int jobs, bool json)
{
    batch_print b = {0};
    b.quiet = quiet;
    b.files = json ? json_array() : NULL;
    ferry_export_tree_options o = {0};
    ferry_export_options *e = &o.export;
    cli_export_choices(co, e);
    /* Like cp -r: a batch writes new, reproducible files, and a flush per
     * file would cost more than converting it. */
    e->write.no_sync = true;
    e->message = on_message;
    o.jobs = jobs > 0 ? (unsigned)jobs : 0;
    o.item = on_item;
    o.item_user = &b;
    o.progress = cli_progress_report;
    o.progress_user = &b.progress;
    o.places = co->places;
    /* --anim FILE with -r: attached to every model, as asked. */
    size_t anim_count;
    ferry_asset **anims = cli_open_animations(co, &anim_count);
    ferry_export_tree_report t = {0};
    ferry_error err;
    int status = CLI_INVALID;
    if (!anims) goto done;
    e->animations = (const ferry_asset *const *)anims;
    e->animation_count = anim_count;
    ferry_result r = ferry_export_tree(in, out_dir, &o, &t, &err);
    cli_progress_end(&b.progress);
    if (r != FERRY_OK && !t.owned) {
        status = r == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
        goto done;
    }
    if (b.logs.size && !b.logs.failed && !quiet) fwrite(b.logs.data, 1, b.logs.size, stderr);
    if (b.files) {
        json_t *root = json_object();
        json_object_set_new(root, "files", b.files);
        b.files = NULL;
        json_object_set_new(root, "converted", json_integer((json_int_t)t.converted));
        json_object_set_new(root, "failed", json_integer((json_int_t)t.failed));
        /* The count (link loops and folders that could not be read), then
         * each folder with its reason; failed_folders: those unreadable. */
        json_object_set_new(root, "skipped_folders", json_integer((json_int_t)t.skipped_count));
        json_object_set_new(root, "failed_folders", json_integer((json_int_t)t.failed_folders));
        json_t *list = json_array();
        for (size_t i = 0; i < t.skipped_count; i++) {
            json_t *s = json_object();
            cli_json_set_text(s, "path", t.skipped[i].path);
            cli_json_set_text(s, "reason", t.skipped[i].reason);
            json_object_set_new(s, "failed", json_boolean(t.skipped[i].failed));
            json_array_append_new(list, s);
        }
        json_object_set_new(root, "skipped_folder_list", list);
        cli_print_json(root);
        json_decref(root);
    }
    fprintf(stderr, "%zu of %zu files converted into %s (%zu animations, %zu images embedded, %zu warnings)",
            t.converted, t.item_count, CLI_TXT(out_dir), t.animations, t.images, t.warnings);
    if (t.failed) {
        fprintf(stderr, "; %zu failed:\n", t.failed);
        for (size_t i = 0; i < t.item_count; i++)
            if (!t.items[i].ok) fprintf(stderr, "  %s\n", CLI_TXT(t.items[i].input));
    } else {
        fputc('\n', stderr);
    }
    if (t.failed_folders) {
        fprintf(stderr, "%zu folder%s could not be read:\n", t.failed_folders, t.failed_folders == 1 ? "" : "s");
        for (size_t i = 0; i < t.skipped_count; i++)
            if (t.skipped[i].failed) fprintf(stderr, "  %s: %s\n", CLI_TXT(t.skipped[i].path), CLI_TXT(t.skipped[i].reason));
    }
    print_missing(&t);
    status = r != FERRY_OK || t.failed || t.failed_folders ? CLI_INVALID : CLI_OK;
done:
    ferry_buffer_free(&b.logs);
    json_decref(b.files);
    cli_close_animations(anims, anim_count);
    ferry_export_tree_report_free(&t);
    return status;
}
