/* The format-neutral scene: lifetime and defaults. Everything else about a
 * scene is plain data the caller or a converter fills in. */
#include <ferry/scene.h>

#include <stdlib.h>
#include <string.h>

void ferry_scene_free(ferry_scene *scene)
{
    if (!scene) return;
    /* A converter allocates the scene struct itself inside its arena, so the
     * struct must not be touched once the arena is gone: read the owner first.
     * A hand-built scene (arena NULL) belongs to its caller entirely. */
    ferry_arena *arena = scene->arena;
    if (arena) ferry_arena_destroy(arena);
}

void ferry_scene_material_init(ferry_scene_material *material)
{
    if (!material) return;
    memset(material, 0, sizeof *material);
    for (int i = 0; i < 4; i++) material->base_color_factor[i] = 1.0f;
    material->normal_scale = 1.0f;
    material->metallic_factor = 0.0f; /* these engines have no metalness */
    material->roughness_factor = 1.0f;
    material->alpha_mode = FERRY_ALPHA_OPAQUE;
    material->alpha_cutoff = 0.5f; /* glTF's default, used only by MASK */
}

void ferry_scene_node_init(ferry_scene_node *node)
{
    if (!node) return;
    memset(node, 0, sizeof *node);
    node->rotation[3] = 1.0f;
    for (int i = 0; i < 3; i++) node->scale[i] = 1.0f;
}

bool ferry_scene_find_animation(const ferry_scene *scene, const char *which, size_t *index)
{
    if (!scene || !index) return false;
    if (!which) {
        if (scene->animation_count != 1) return false;
        *index = 0;
        return true;
    }
    char *end;
    unsigned long long n = strtoull(which, &end, 10);
    if (*which && !*end && n < scene->animation_count) {
        *index = (size_t)n;
        return true;
    }
    for (size_t i = 0; i < scene->animation_count; i++)
        if (scene->animations[i].name && strcmp(scene->animations[i].name, which) == 0) {
            *index = i;
            return true;
        }
    return false;
}
