#include "perfgate/main.h"

int main(int argc, char** argv) { return perfgate::perfgate_main(argc, argv, PERFGATE_SOURCE_DIR); }
