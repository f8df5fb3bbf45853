/* The object numbering that connections use. */
#include <ferry/alo.h>

size_t ferry_alo_object_count(const ferry_alo_model *model)
{
    return model->object_count ? model->object_count : model->mesh_count + model->light_count;
}

ferry_alo_object ferry_alo_object_at(const ferry_alo_model *model, size_t index)
{
    if (model->object_count) return model->objects[index];
    if (index < model->mesh_count) return (ferry_alo_object){FERRY_ALO_OBJECT_MESH, index};
    return (ferry_alo_object){FERRY_ALO_OBJECT_LIGHT, index - model->mesh_count};
}
