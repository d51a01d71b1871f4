// LD_PRELOAD shim for the benchmark's fake upstreams: raises every listen() backlog to
// SWITCHYARD_BENCH_BACKLOG (default 4096). Qt's QTcpServer listens with a backlog of 50, so 200
// connections opened at once overflow the fake's accept queue; the kernel then drops SYNs and the
// client retries a second later. That would measure the fake, not the path to it. The relay is
// never run with this shim: its own backlog is part of what the benchmark measures.
#include <dlfcn.h>
#include <sys/socket.h>

#include <cstdlib>

extern "C" int listen(int fd, int backlog)
{
    using Listen = int (*)(int, int);
    static const Listen real = reinterpret_cast<Listen>(dlsym(RTLD_NEXT, "listen"));
    int wanted = 4096;
    if (const char *value = std::getenv("SWITCHYARD_BENCH_BACKLOG"))
        wanted = std::atoi(value);
    return real(fd, backlog < wanted ? wanted : backlog);
}
