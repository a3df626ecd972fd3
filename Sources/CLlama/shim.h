// The headers scripts/build-llama.sh installs (`make deps`): without them, run it first.
#include "../../.build/llama/include/llama.h"
#include "../../.build/llama/include/ggml-backend.h"
