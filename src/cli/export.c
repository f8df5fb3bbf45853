/* ferry convert MODEL OUT.glb: the library's export (engine.h), printed:
 * its messages, the summary lines from its report. */
#include "export.h"
#include "formats.h"

#include <ferry/odol.h>

#include <stdlib.h>
#include <string.h>

/* The engine's messages the tool words itself: whether "error:"/"warning:"
 * is said, and what to add (the option that changes it). */
static const struct engine_words {
    const char *rule;
    bool kind; /* "FILE: KIND: TEXT", else "FILE: TEXT" */
    const char *after;
} engine_words[] = {
    {FERRY_EXPORT_NOT_CONVERTED, false, " (ferry validate lists them all; --allow-invalid converts anyway)"},
    {FERRY_EXPORT_CONVERTED_ANYWAY, false, ""},
    {FERRY_EXPORT_ANIMATION_ALONE, true, "; give its model and --anim"},
    {FERRY_EXPORT_ANIMATION_MISFIT, true, " (--force attaches it anyway)"},
    {FERRY_EXPORT_ANIMATION_FORCED, true, " (--force)"},
    {FERRY_EXPORT_ANIMATION_ATTACHED, true, ""},
    {FERRY_EXPORT_ANIMATION_SKIPPED, true, ""},
};

static const struct engine_words *engine_words_of(const char *rule)
{
    for (size_t i = 0; rule && i < sizeof engine_words / sizeof engine_words[0]; i++)
        if (strcmp(rule, engine_words[i].rule) == 0) return &engine_words[i];
    return NULL;
}

bool cli_message_is_finding(const ferry_message *m) { return m->rule && !engine_words_of(m->rule); }

void cli_message_text(ferry_buffer *out, const char *cmd, const ferry_message *m)
{
    if (m->rule && (strcmp(m->rule, FERRY_WALK_FOLDER_REVISITED) == 0 || strcmp(m->rule, FERRY_WALK_FOLDER_UNREADABLE) == 0)) {
        cli_bprintf(out, "ferry %s: %s %s: %s\n", cmd,
                    m->kind == FERRY_MESSAGE_ERROR ? "cannot read the folder" : "skipping", CLI_TXT(m->file),
                    CLI_TXT(m->text));
        return;
    }
    if (!m->file) {
        cli_bprintf(out, "ferry %s: %s\n", cmd, CLI_TXT(m->text));
        return;
    }
    const struct engine_words *w = engine_words_of(m->rule);
    cli_bprintf(out, "%s: ", CLI_TXT(m->file));
    const char *kind = m->kind == FERRY_MESSAGE_ERROR ? "error" : m->kind == FERRY_MESSAGE_WARNING ? "warning" : "note";
    if (!w || w->kind) cli_bprintf(out, "%s: ", kind);
    const char *text = m->text;
    static const char anyway[] = "converting anyway";
    if (w && strcmp(w->rule, FERRY_EXPORT_CONVERTED_ANYWAY) == 0 && strncmp(text, anyway, sizeof anyway - 1) == 0) {
        cli_bprintf(out, "converting anyway (--allow-invalid)");
        text += sizeof anyway - 1;
    }
    cli_bprintf(out, "%s", CLI_TXT(text));
    if (w)
        cli_bprintf(out, "%s", w->after);
    else if (m->rule)
        cli_bprintf(out, " [%s]", m->rule);
    cli_bprintf(out, "\n");
}

void cli_fprint_message(FILE *f, const char *cmd, const ferry_message *m)
{
    ferry_buffer line = {0};
    cli_message_text(&line, cmd, m);
    if (line.size) fwrite(line.data, 1, line.size, f);
    ferry_buffer_free(&line);
}

void cli_export_report_lines(ferry_buffer *out, const char *in, const ferry_export_report *r, bool single)
{
    if (r->format != FERRY_FORMAT_ODOL || !r->written) return;
    const ferry_odol_scene_report *rep = &r->odol;
    const char *name = CLI_TXT(in);
    if (r->game_view && rep->visual_lod >= 0) {
        if (single)
            cli_bprintf(out, "%s: the game's view: LOD %d (%s), the most detailed (--all exports every LOD)\n",
                        name, (int)rep->visual_lod, r->visual_lod_name);
        /* A game-view LOD with nothing to draw (real files have an empty
         * 1.000 beside a Roadway holding the faces): an empty export must
         * not pass unnoticed. */
        if (r->visual_lod_empty && r->lods_with_faces == 1)
            cli_bprintf(out,
                        "%s: warning: 0 triangles exported: LOD %d (%s) has no faces to draw; LOD %u (%s) has faces: "
                        "--lod %u exports it, --all every LOD\n",
                        name, (int)rep->visual_lod, r->visual_lod_name, (unsigned)r->lod_with_faces,
                        r->lod_with_faces_name, (unsigned)r->lod_with_faces);
        else if (r->visual_lod_empty && r->lods_with_faces)
            cli_bprintf(out,
                        "%s: warning: 0 triangles exported: LOD %d (%s) has no faces to draw; %u other LODs have faces: "
                        "--all exports every LOD\n",
                        name, (int)rep->visual_lod, r->visual_lod_name, (unsigned)r->lods_with_faces);
        else if (r->visual_lod_empty)
            cli_bprintf(out,
                        "%s: warning: 0 triangles exported: LOD %d (%s) has no faces to draw, nor has any other LOD\n",
                        name, (int)rep->visual_lod, r->visual_lod_name);
    } else if (r->game_view) {
        cli_bprintf(out, "%s: note: no visual LOD (the game draws nothing of this model): every LOD exported\n", name);
    }
    if (rep->procedural_ignored)
        cli_bprintf(out, "%s: warning: %u procedural texture%s not read as a colour, e.g. %s\n", name,
                    (unsigned)rep->procedural_ignored, rep->procedural_ignored == 1 ? "" : "s",
                    CLI_TXT(rep->procedural_problem));
}

/* ---- one file: the messages kept, then printed with the summary ---- */

static void print_kept(const ferry_message_list *l, size_t from, size_t to, bool findings_to_stdout)
{
    for (size_t i = from; i < to; i++) {
        const ferry_message *m = &l->items[i];
        /* An ALM's conversion warnings went to stdout (as its validation's did). */
        bool out = findings_to_stdout && m->kind == FERRY_MESSAGE_WARNING && cli_message_is_finding(m);
        cli_fprint_message(out ? stdout : stderr, "convert", m);
    }
}

static void print_missing(const char *in, const ferry_export_report *r, bool cut)
{
    if (!r->missing_texture_count) return;
    fprintf(stderr, "%s: %zu texture%s missing:", CLI_TXT(in), r->missing_texture_count,
            r->missing_texture_count == 1 ? "" : "s");
    /* "A.dds, B.tga": each name shown, or (`cut`) the names as they are,
     * cut to 1020 bytes and "..." when they take 1024 or more, then shown. */
    ferry_buffer list = {0};
    for (size_t i = 0; i < r->missing_texture_count; i++)
        cli_bprintf(&list, "%s%s", i ? ", " : "", cut ? r->missing_textures[i] : CLI_TXT(r->missing_textures[i]));
    if (cut && list.size >= 1024) {
        list.size = 1020;
        ferry_buffer_append(&list, "...", 3);
    }
    ferry_buffer_append(&list, "", 1);
    fprintf(stderr, " %s\n", list.failed ? "" : cut ? CLI_TXT((const char *)list.data) : (const char *)list.data);
    ferry_buffer_free(&list);
}

static void print_alamo_summary(const char *in, const char *out, const ferry_export_report *r)
{
    /* A .gltf's images are PNG files beside it, a .glb's are inside it. */
    fprintf(stderr, "%s -> %s: %zu animation%s, %zu image%s %s, %zu warning%s\n", CLI_TXT(in), CLI_TXT(out),
            r->animations, r->animations == 1 ? "" : "s", r->images, r->images == 1 ? "" : "s",
            cli_has_ext(out, ".gltf") ? "written" : "embedded", r->warnings, r->warnings == 1 ? "" : "s");
    if (r->meshes_left_out)
        fprintf(stderr, "%s: %zu mesh%s the game does not draw at first sight left out (--all keeps them)\n", CLI_TXT(in),
                r->meshes_left_out, r->meshes_left_out == 1 ? "" : "es");
    print_missing(in, r, true);
}

static void print_odol_summary(const char *in, const char *out, const ferry_export_report *r)
{
    const ferry_odol_scene_report *rep = &r->odol;
    fprintf(stderr, "%s -> %s: %u LOD%s, %llu triangles, %u prox%s", CLI_TXT(in), CLI_TXT(out), (unsigned)rep->lods,
            rep->lods == 1 ? "" : "s", (unsigned long long)rep->triangles, (unsigned)rep->proxies,
            rep->proxies == 1 ? "y" : "ies");
    if (rep->points) fprintf(stderr, ", %llu points", (unsigned long long)rep->points);
    fprintf(stderr, ", %u material%s", (unsigned)rep->materials, rep->materials == 1 ? "" : "s");
    if (rep->proxy_triangles)
        fprintf(stderr, ", %u proxy triangle%s left out", (unsigned)rep->proxy_triangles,
                rep->proxy_triangles == 1 ? "" : "s");
    if (rep->normals_repaired)
        fprintf(stderr, ", %llu zero normal%s computed from the faces", (unsigned long long)rep->normals_repaired,
                rep->normals_repaired == 1 ? "" : "s");
    if (rep->normals_computed_primitives)
        fprintf(stderr, ", normals of %u primitive%s computed (none stored)", (unsigned)rep->normals_computed_primitives,
                rep->normals_computed_primitives == 1 ? "" : "s");
    if (r->texture_roots) {
        fprintf(stderr, ", %u image%s %s (%u of %u texture%s found", (unsigned)rep->images, rep->images == 1 ? "" : "s",
                cli_has_ext(out, ".gltf") ? "written" : "embedded", (unsigned)rep->textures_found,
                (unsigned)rep->textures, rep->textures == 1 ? "" : "s");
        if (rep->rvmats)
            fprintf(stderr, ", %u of %u rvmat%s read", (unsigned)rep->rvmats_read, (unsigned)rep->rvmats,
                    rep->rvmats == 1 ? "" : "s");
        fputc(')', stderr);
    }
    if (rep->skins)
        fprintf(stderr, ", %u skin%s (%u joints), %u animation%s", (unsigned)rep->skins, rep->skins == 1 ? "" : "s",
                (unsigned)rep->joints, (unsigned)rep->animations, rep->animations == 1 ? "" : "s");
    fputc('\n', stderr);
    if (rep->animations_unbound)
        fprintf(stderr, "%s: note: %u animation class%s move%s no bone of the LODs exported (e.g. '%s'; --all exports "
                        "every LOD)\n",
                CLI_TXT(in), (unsigned)rep->animations_unbound, rep->animations_unbound == 1 ? "" : "es",
                rep->animations_unbound == 1 ? "s" : "", CLI_TXT(rep->animation_unbound));
}

static void print_alm_summary(const char *in, const char *out, const ferry_export_report *r)
{
    const ferry_alm_scene_report *rep = &r->alm;
    char lod_text[96] = "full resolution";
    if (r->alm_lod)
        snprintf(lod_text, sizeof lod_text, "LOD after %u of %u collapses", (unsigned)rep->collapses_applied,
                 (unsigned)r->collapses);
    char how[256];
    if (rep->skinned)
        snprintf(how, sizeof how, "skin of %u bones (at most %u influences; %u positions over 4, largest dropped weight %.4g)",
                 (unsigned)r->bones, (unsigned)rep->max_influences, (unsigned)rep->positions_truncated,
                 rep->max_dropped_weight);
    else
        snprintf(how, sizeof how, "%u frames as morph targets (%s)", (unsigned)r->frames, rep->reason ? rep->reason : "");
    fprintf(stderr, "%s -> %s: %s, %u triangles, %u vertices, %s, %u images\n", CLI_TXT(in), CLI_TXT(out), lod_text,
            (unsigned)rep->triangle_count, (unsigned)rep->vertex_count, how, (unsigned)rep->images);
}

/* Where an ODOL export's summary goes: after what validation said, before
 * the conversion's warnings (textures not found). */
static size_t validation_end(const ferry_message_list *l)
{
    size_t end = 0;
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].kind == FERRY_MESSAGE_ERROR ||
            (l->items[i].rule && strcmp(l->items[i].rule, FERRY_EXPORT_CONVERTED_ANYWAY) == 0))
            end = i + 1;
    return end;
}

void cli_export_choices(const cli_convert_options *co, ferry_export_options *o)
{
    o->all = co->all;
    o->force = co->force;
    o->auto_animations = co->auto_animations;
    o->textures = co->textures;
    o->texture_count = co->texture_count;
    o->skip_textures = co->skip_textures;
    o->allow_invalid = co->allow_invalid;
}

int cli_open_places(const char *const *paths, size_t count, cli_convert_options *o)
{
    const ferry_place **places = calloc(count ? count : 1, sizeof *places);
    if (!places || !(o->places = ferry_places_new())) {
        free(places);
        fprintf(stderr, "ferry convert: out of memory\n");
        return CLI_INVALID;
    }
    o->textures = places;
    for (size_t i = 0; i < count; i++) {
        ferry_error err;
        if (!(places[i] = ferry_places_open(o->places, paths[i], &err))) {
            cli_print_error(paths[i], &err);
            return CLI_INVALID;
        }
        o->texture_count++;
    }
    return CLI_OK;
}

void cli_close_places(cli_convert_options *o)
{
    free((void *)o->textures);
    ferry_places_free(o->places);
}

ferry_asset **cli_open_animations(const cli_convert_options *co, size_t *count)
{
    *count = co->animations ? co->animation_count : 0;
    ferry_asset **anims = calloc(*count ? *count : 1, sizeof *anims);
    if (!anims) fprintf(stderr, "ferry convert: out of memory\n");
    for (size_t i = 0; anims && i < *count; i++) {
        ferry_asset_options ao = {.name = co->animations[i], .bytes_only = true};
        ferry_error err;
        if (ferry_asset_open(co->animations[i], &ao, &anims[i], &err) != FERRY_OK) {
            cli_print_error(co->animations[i], &err);
            cli_close_animations(anims, i);
            return NULL;
        }
    }
    return anims;
}

void cli_close_animations(ferry_asset **anims, size_t count)
{
    for (size_t i = 0; anims && i < count; i++) ferry_asset_free(anims[i]);
    free(anims);
}

int cli_export_file(const char *in, const char *out, const cli_convert_options *co)
{
    ferry_export_input input;
    ferry_error err;
    if (ferry_export_input_open(in, co->places, &input, &err) != FERRY_OK) {
        cli_print_error(in, &err);
        return CLI_INVALID;
    }
    int status = CLI_INVALID;
    size_t anim_count;
    ferry_asset **anims = cli_open_animations(co, &anim_count);
    ferry_message_list messages = {0};
    ferry_export_report report = {0};
    if (!anims) goto done;
    ferry_export_options o = {0};
    o.lods = co->lod_count ? co->lods : NULL;
    o.lod_count = co->lod_count;
    o.no_animations = co->no_animations;
    o.alm_lod = co->alm_lod;
    o.animations = (const ferry_asset *const *)anims;
    o.animation_count = anim_count;
    cli_export_choices(co, &o);
    o.message = ferry_message_list_add;
    o.user = &messages;
    o.report = &report;
    ferry_result r = ferry_export_file(&input, out, &o, &err);
    status = r == FERRY_OK ? CLI_OK : r == FERRY_ERR_ARGUMENT ? CLI_USAGE : CLI_INVALID;
    bool ok = r == FERRY_OK;
    switch (ok ? report.format : FERRY_FORMAT_UNKNOWN) {
    case FERRY_FORMAT_ODOL: {
        size_t split = validation_end(&messages);
        print_kept(&messages, 0, split, false);
        print_odol_summary(in, out, &report);
        print_kept(&messages, split, messages.count, false);
        print_missing(in, &report, false);
        ferry_buffer lines = {0};
        cli_export_report_lines(&lines, in, &report, true);
        if (lines.size) fwrite(lines.data, 1, lines.size, stderr);
        ferry_buffer_free(&lines);
        break;
    }
    case FERRY_FORMAT_ALM:
        print_kept(&messages, 0, messages.count, true);
        print_alm_summary(in, out, &report);
        break;
    case FERRY_FORMAT_ALO_MODEL:
    case FERRY_FORMAT_ALO_PARTICLE:
        print_kept(&messages, 0, messages.count, false);
        print_alamo_summary(in, out, &report);
        break;
    default:
        print_kept(&messages, 0, messages.count, report.format == FERRY_FORMAT_ALM);
    }
done:
    cli_close_animations(anims, anim_count);
    ferry_message_list_free(&messages);
    ferry_export_report_free(&report);
    ferry_export_input_close(&input);
    return status;
}
