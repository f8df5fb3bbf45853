/* Particle systems as the game shows them: one system read from a file, or
 * the systems on a model's proxies (found beside the model by the proxies'
 * names, placed at their bones), with the textures their emitters name,
 * simulated and drawn together. What `ferry render` draws, for every front
 * end. */
#ifndef FERRY_PARTICLE_VIEW_H
#define FERRY_PARTICLE_VIEW_H

#include <ferry/format.h>
#include <ferry/particle_sim.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The systems placed, the files they came from and the textures found so
 * far (each decoded once). Not for several threads at once: drawing fills
 * the texture cache. */
typedef struct ferry_particle_view ferry_particle_view;

typedef struct ferry_particle_view_options {
    /* Where the game finds what the asset names (ferry_alamo_texture_find's
     * rules): a proxy's particle file (its name, with ".alo" added when it
     * has no extension) and every emitter's texture: beside the model or
     * system, in the Textures folders of the one above, then in each further
     * place. NULL: nothing is found (proxies are left out, particles drawn
     * as a soft glow). Must outlive the view. */
    const ferry_alamo_texture_places *places;
    /* How messages name the asset; NULL: ferry_asset_name. Copied. */
    const char *name;
    ferry_read_options read; /* for the proxies' particle files */
    /* Proxies left out (hidden: note; no file, not a particle system:
     * warning) and textures not found or not decodable (warnings), as met. */
    ferry_message_fn message;
    void *user;
} ferry_particle_view_options;

/* One system placed in the world. */
typedef struct ferry_particle_placed {
    const ferry_particle_system *system;
    /* The world matrix of the proxy's bone (column-major, as
     * ferry_particle_sim_options.transform); has_transform false: the
     * system's own space (the asset was the system, or the proxy's bone is
     * not in the skeleton). */
    float transform[16];
    bool has_transform;
    const char *proxy; /* the proxy's name; NULL: the asset is the system */
    const char *path;  /* its file's path in the place it was found (ferry_alamo_texture_find's); NULL: the asset */
} ferry_particle_placed;

/* A view of `asset`: an ALO particle system (one system, at the origin), or
 * an ALO model: the system of each proxy that is not hidden (hidden
 * proxies show only when the game is told to), read from the file found
 * for it, placed at the proxy's bone; a proxy whose file is not found or
 * is no particle system is left out with a warning. A model may place no
 * system at all (ferry_particle_view_render then refuses to draw). Any
 * other asset is FERRY_ERR_ARGUMENT ("this is an ALO animation, not a
 * particle system or a model"), sent as a message too. The asset must
 * outlive the view. */
FERRY_API ferry_result ferry_particle_view_open(const ferry_asset *asset, const ferry_particle_view_options *options,
                                                ferry_particle_view **out, ferry_error *err);
FERRY_API void ferry_particle_view_free(ferry_particle_view *view); /* NULL does nothing */

FERRY_API size_t ferry_particle_view_count(const ferry_particle_view *view);
/* System i (NULL past the last). */
FERRY_API const ferry_particle_placed *ferry_particle_view_at(const ferry_particle_view *view, size_t index);
/* Whether the view's asset is a model (its systems are those of its proxies). */
FERRY_API bool ferry_particle_view_of_model(const ferry_particle_view *view);

/* The texture an emitter names, found through options->places and decoded
 * the first time it is asked for (TGA or DDS; a .tga name also finds a
 * .dds); NULL when not found or not decodable (warned about once). A
 * ferry_particle_texture_fn: pass it with the view as `user` to
 * ferry_particle_render. An image returned stays where it is until the
 * view is freed, however many textures are found after it. */
FERRY_API const ferry_image *ferry_particle_view_texture(const char *name, void *view);

/* Called with each frame drawn, in order; false ends the drawing (with
 * *err filled: the drawing returns it, and does not send it as a message). */
typedef bool (*ferry_particle_frame_fn)(void *user, size_t index, const ferry_image *image, ferry_error *err);

typedef struct ferry_particle_view_render_options {
    /* Each system's simulation: seed, ground, wind, limits (transform: the
     * system's place, set by the view). */
    ferry_particle_sim_options sim;
    double time;  /* seconds since the systems' creation at the first frame */
    double fps;   /* frame i at time + i / fps (0: one frame; an animation when > 0) */
    size_t frames; /* 0: 1 */
    /* Size and background (0 x 0: 512 x 512). Zero backgrounds and no
     * checker: ferry render's grey checkerboard (0.32 and 0.48, cells of
     * width / 16 pixels, at least 4), on which see-through smoke of any
     * grey shows; `plain` keeps `background` alone. The camera, texture and
     * user are the view's: the camera framed on the live particles of every
     * frame (ferry_particle_camera_frame), textures through
     * ferry_particle_view_texture. */
    ferry_particle_render_options render;
    bool plain;
    ferry_particle_frame_fn frame; /* required */
    void *user;
} ferry_particle_view_render_options;

typedef struct ferry_particle_view_render_report {
    size_t frames;      /* frames drawn (given to `frame`) */
    size_t live_frames; /* of them, frames with visible live particles */
    size_t live_last;   /* live particles at the last frame drawn */
    ferry_particle_camera camera;
} ferry_particle_view_render_report;

/* Simulates every system of the view and draws the frames, all in one
 * picture each (ferry_particle_render_many): first every frame's live
 * particles are measured for the camera, then each frame is drawn and
 * handed to options->frame. Limits a simulation reached and frames with no
 * live particle at all are warnings (messages of the view). A view with no
 * system is FERRY_ERR_ARGUMENT ("no particle system on the model's proxies
 * to draw"), sent as a message too. `report` may be NULL. */
FERRY_API ferry_result ferry_particle_view_render(ferry_particle_view *view,
                                                  const ferry_particle_view_render_options *options,
                                                  ferry_particle_view_render_report *report, ferry_error *err);

#ifdef __cplusplus
}
#endif

#endif
