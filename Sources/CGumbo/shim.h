#ifndef VAULTMAIL_CGUMBO_SHIM_H
#define VAULTMAIL_CGUMBO_SHIM_H

/* gumbo (Debian libgumbo-dev): the HTML5 parser VaultMailWeb's mail sanitizer reads mail HTML
 * with. Imported by VaultMailWeb only. */
#include <gumbo.h>
#include <stdlib.h>
#include <string.h>

/* The byte length of a text, whitespace, comment or CDATA node's decoded text (NUL-terminated by
 * gumbo; the node owns it). */
static inline size_t vm_gumbo_text_length(const GumboNode *node) {
    return node->v.text.text ? strlen(node->v.text.text) : 0;
}

/* A bump allocator holding everything one parse allocates, released at once.
 *
 * gumbo_destroy_output frees the tree recursively, one frame per level, and the adoption agency
 * algorithm lets hostile markup nest the tree without bound (it moves built subtrees under new
 * elements): releasing the arena instead needs no recursion. It is also faster than malloc/free
 * per node. Frees during the parse are ignored: the arena lives only as long as the parse. */
typedef struct VMGumboArenaChunk {
    struct VMGumboArenaChunk *previous;
    size_t size;
    size_t used;
    max_align_t data[];
} VMGumboArenaChunk;

typedef struct {
    VMGumboArenaChunk *current;
} VMGumboArena;

static inline void *vm_gumbo_arena_allocate(void *userdata, size_t size) {
    VMGumboArena *arena = (VMGumboArena *)userdata;
    size = (size + 15) & ~(size_t)15;
    VMGumboArenaChunk *chunk = arena->current;
    if (chunk == NULL || chunk->size - chunk->used < size) {
        size_t capacity = chunk == NULL ? 64 * 1024 : chunk->size * 2;
        if (capacity > 4 * 1024 * 1024) capacity = 4 * 1024 * 1024;
        if (capacity < size) capacity = size;
        chunk = (VMGumboArenaChunk *)malloc(sizeof(VMGumboArenaChunk) + capacity);
        if (chunk == NULL) abort(); /* as gumbo's own malloc use: it cannot recover either */
        chunk->previous = arena->current;
        chunk->size = capacity;
        chunk->used = 0;
        arena->current = chunk;
    }
    void *block = (char *)chunk->data + chunk->used;
    chunk->used += size;
    return block;
}

static inline void vm_gumbo_arena_deallocate(void *userdata, void *block) {
    (void)userdata;
    (void)block;
}

/* Frees every block the arena handed out. */
static inline void vm_gumbo_arena_release(VMGumboArena *arena) {
    while (arena->current != NULL) {
        VMGumboArenaChunk *previous = arena->current->previous;
        free(arena->current);
        arena->current = previous;
    }
}

#endif
