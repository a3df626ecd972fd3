// The headers scripts/build-llama.sh installs (`make deps`): without them, run it first.
#include "../../.build/llama/include/llama.h"
#include "../../.build/llama/include/ggml-backend.h"
// malloc_trim: an unloaded model's heap goes back to the system at once.
#include <malloc.h>
