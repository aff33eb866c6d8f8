// Included through INCLUDE_DIRS: the variant's FACTOR (a define) applied to one element.
float scaled(float x) { return FACTOR * x; }
