// glibc's process descriptors (pidfd_open, since 2.36), which Swift's Glibc module leaves out.
#include <sys/pidfd.h>
