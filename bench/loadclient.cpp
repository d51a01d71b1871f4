// switchyard-bench-client: the load client of bench/run.sh.
//
// One single-threaded epoll loop over raw sockets, no Qt, so that the client is not what limits a
// measurement. It talks to several targets (direct upstream, nginx, relay) and interleaves them:
// every repetition runs the same request against each target back to back, in the order given,
// so machine noise hits all of them alike. Results go to stdout as one JSON object per line.
//
//   switchyard-bench-client --mode ttfb|throughput|concurrent|models|fanout [options]
//       --target NAME=HOST:PORT,MODEL[,PID+PID...]   (repeatable; PIDs: CPU/RSS are read from /proc;
//                         the same NAME again adds an endpoint, and concurrent streams go
//                         round-robin over a target's endpoints)
//       --reps N          repetitions per target (default 10)
//       --warmup N        untimed requests per target first (default 2)
//       --max-tokens N    max_tokens of each chat request (default 16)
//       --history-bytes N earlier conversation before the question, about N bytes of it, as coding
//                         agents send (default 0: the question alone)
//       --phase NAME      the "phase" of the result lines (default: the mode)
//       --streams N       concurrent streams in --mode concurrent (default 200)
//       --path P          request path (default /v1/chat/completions, /models for --mode models)
//       --timeout-s S     give up on one run after S seconds (default 60)
//       --trigger H:P     --mode fanout: `--streams` watchers of the target's /models/sse wait for
//                         the event of a POST /models/load to this fake (model PREFIX02, 03, …)
//       --trigger-prefix P the models' prefix (default m)
//       --gap-us N        in ttfb, throughput and models: wait N µs after each request before the
//                         next (default 0), so that what a target does after answering (closing,
//                         logging, reconnecting) is over before the next target's clock starts
//
// Times: the clock starts right before the request is written (connecting comes first and is not
// timed for sequential requests; in --mode concurrent the clock starts before the first connect).
// "First SSE line" is the moment the first complete `data:` line of the decoded body has arrived.
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double, std::milli>(to - from).count();
}

[[noreturn]] void die(const std::string &why)
{
    std::fprintf(stderr, "switchyard-bench-client: %s\n", why.c_str());
    std::exit(2);
}

struct Target
{
    std::string name;
    std::string host = "127.0.0.1";
    int port = 0;
    std::string model;
    std::vector<int> pids;
    // The same NAME given again: more endpoints of one target. Concurrent streams go round-robin
    // over all of them (the scale run: direct spreads over 20 fakes, the relay over 20 hosts).
    std::vector<Target> more;
};

const Target &endpoint(const Target &t, size_t i)
{
    const size_t k = i % (1 + t.more.size());
    return k == 0 ? t : t.more[k - 1];
}

Target parseTarget(const std::string &spec)
{
    Target t;
    const auto eq = spec.find('=');
    if (eq == std::string::npos)
        die("--target wants NAME=HOST:PORT,MODEL[,PID+PID], not " + spec);
    t.name = spec.substr(0, eq);
    std::vector<std::string> parts;
    std::stringstream ss(spec.substr(eq + 1));
    std::string part;
    while (std::getline(ss, part, ','))
        parts.push_back(part);
    if (parts.empty())
        die("--target " + spec + ": no address");
    const auto colon = parts[0].rfind(':');
    if (colon == std::string::npos)
        die("--target " + spec + ": address wants HOST:PORT");
    t.host = parts[0].substr(0, colon);
    t.port = std::atoi(parts[0].c_str() + colon + 1);
    if (parts.size() > 1)
        t.model = parts[1];
    if (parts.size() > 2) {
        std::stringstream ps(parts[2]);
        std::string p;
        while (std::getline(ps, p, '+'))
            if (!p.empty())
                t.pids.push_back(std::atoi(p.c_str()));
    }
    return t;
}

// CPU seconds (user + system) the given processes have used so far.
double cpuSeconds(const std::vector<int> &pids)
{
    static const long ticks = sysconf(_SC_CLK_TCK);
    double total = 0;
    for (int pid : pids) {
        std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        if (!std::getline(f, line))
            continue;
        const auto close = line.rfind(')');
        if (close == std::string::npos)
            continue;
        std::stringstream ss(line.substr(close + 2));
        std::string field;
        // Fields after the command: state(3) ... utime(14) stime(15).
        unsigned long long utime = 0, stime = 0;
        for (int i = 3; i <= 15 && ss >> field; ++i) {
            if (i == 14)
                utime = std::strtoull(field.c_str(), nullptr, 10);
            if (i == 15)
                stime = std::strtoull(field.c_str(), nullptr, 10);
        }
        total += double(utime + stime) / double(ticks);
    }
    return total;
}

// CPU seconds the given processes' live threads have run, from the scheduler's nanosecond
// accounting (/proc/PID/task/TID/schedstat); /proc/PID/stat counts in 10 ms ticks, too coarse for
// a burst of ten streams. Falls back to cpuSeconds() where schedstat is missing.
double runSeconds(const std::vector<int> &pids)
{
    double total = 0;
    for (int pid : pids) {
        const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
        DIR *dir = ::opendir(tasks.c_str());
        if (!dir)
            continue;
        bool any = false;
        while (const dirent *e = ::readdir(dir)) {
            if (e->d_name[0] == '.')
                continue;
            std::ifstream f(tasks + "/" + e->d_name + "/schedstat");
            unsigned long long ns = 0;
            if (f >> ns) {
                total += double(ns) / 1e9;
                any = true;
            }
        }
        ::closedir(dir);
        if (!any)
            total += cpuSeconds({pid});
    }
    return total;
}

long rssKb(int pid)
{
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::atol(line.c_str() + 6);
    }
    return -1;
}

// A counter of the kernel's TcpExt statistics (system-wide), e.g. ListenOverflows: SYNs dropped
// because a listening socket's accept queue was full.
long long tcpExt(const std::string &name)
{
    std::ifstream f("/proc/net/netstat");
    std::string keys, values;
    while (std::getline(f, keys) && std::getline(f, values)) {
        if (keys.rfind("TcpExt:", 0) != 0)
            continue;
        std::stringstream k(keys), v(values);
        std::string key, value;
        while (k >> key && v >> value) {
            if (key == name)
                return std::atoll(value.c_str());
        }
    }
    return -1;
}

double selfCpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

// One HTTP/1.1 exchange on one connection: writes the request, decodes the response (chunked,
// Content-Length or until close) and counts SSE `data:` lines in the decoded body.
struct Exchange
{
    int fd = -1;
    bool connecting = false;
    std::string request;
    size_t written = 0;

    // Response parsing.
    enum class State { Head, ChunkSize, ChunkData, ChunkDataEnd, Trailers, Body, UntilClose, Done, Failed };
    State state = State::Head;
    std::string head;
    int status = 0;
    bool chunked = false;
    long long remaining = -1;
    bool serverKeepsAlive = true;
    std::string line;   // a partial chunk-size / trailer line

    // SSE scanning of the decoded body.
    char linePrefix[8] = {};
    int linePrefixLen = 0;
    long events = 0;
    bool sawDone = false;
    long long bodyBytes = 0;

    Clock::time_point started{}, sent{}, headAt{}, firstEvent{}, lastEvent{}, finished{};
    std::string error;

    bool done() const { return state == State::Done || state == State::Failed; }
    bool ok() const { return state == State::Done && status >= 200 && status < 300; }

    void fail(const std::string &why)
    {
        if (done())
            return;
        error = why;
        state = State::Failed;
        finished = Clock::now();
    }

    void onBody(const char *p, size_t n, Clock::time_point now)
    {
        bodyBytes += static_cast<long long>(n);
        while (n > 0) {
            const char *nl = static_cast<const char *>(std::memchr(p, '\n', n));
            const size_t seg = nl ? size_t(nl - p) : n;
            for (size_t i = 0; i < seg && linePrefixLen < int(sizeof linePrefix); ++i)
                linePrefix[linePrefixLen++] = p[i];
            if (!nl)
                return;
            // A complete line.
            if (linePrefixLen >= 5 && std::memcmp(linePrefix, "data:", 5) == 0) {
                const char *rest = linePrefix + 5;
                int restLen = linePrefixLen - 5;
                if (restLen > 0 && *rest == ' ') {
                    ++rest;
                    --restLen;
                }
                if (restLen >= 2 && std::memcmp(rest, "[D", 2) == 0) {
                    sawDone = true;
                } else {
                    if (events == 0)
                        firstEvent = now;
                    lastEvent = now;
                    ++events;
                }
            }
            linePrefixLen = 0;
            p = nl + 1;
            n -= seg + 1;
        }
    }

    static std::string lower(std::string s)
    {
        for (char &c : s)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        return s;
    }

    bool parseHead(Clock::time_point now)
    {
        // head holds the bytes up to and including the blank line.
        headAt = now;
        std::stringstream ss(head);
        std::string statusLine;
        std::getline(ss, statusLine);
        if (statusLine.rfind("HTTP/1.", 0) != 0 || statusLine.size() < 12) {
            fail("not an HTTP response");
            return false;
        }
        status = std::atoi(statusLine.c_str() + 9);
        const bool http10 = statusLine[7] == '0';
        serverKeepsAlive = !http10;
        std::string h;
        while (std::getline(ss, h)) {
            if (!h.empty() && h.back() == '\r')
                h.pop_back();
            const auto colon = h.find(':');
            if (colon == std::string::npos)
                continue;
            const std::string name = lower(h.substr(0, colon));
            std::string value = h.substr(colon + 1);
            while (!value.empty() && value.front() == ' ')
                value.erase(0, 1);
            const std::string lv = lower(value);
            if (name == "transfer-encoding" && lv.find("chunked") != std::string::npos)
                chunked = true;
            else if (name == "content-length")
                remaining = std::atoll(value.c_str());
            else if (name == "connection")
                serverKeepsAlive = lv.find("close") == std::string::npos && (!http10 || lv.find("keep-alive") != std::string::npos);
        }
        if (status >= 100 && status < 200) {   // interim: the real head follows
            head.clear();
            return true;
        }
        if (chunked)
            state = State::ChunkSize;
        else if (remaining >= 0)
            state = remaining == 0 ? State::Done : State::Body;
        else {
            state = State::UntilClose;
            serverKeepsAlive = false;
        }
        if (state == State::Done)
            finished = now;
        return true;
    }

    // Feeds received bytes; returns false on a protocol error.
    void feed(const char *p, size_t n, Clock::time_point now)
    {
        while (n > 0 && !done()) {
            switch (state) {
            case State::Head: {
                // Find the end of the head, allowing it to be split across reads.
                const size_t before = head.size();
                head.append(p, n);
                const auto end = head.find("\r\n\r\n");
                if (end == std::string::npos) {
                    if (head.size() > 64 * 1024)
                        fail("response head too large");
                    return;
                }
                const size_t used = end + 4 - before;
                head.resize(end + 4);
                p += used;
                n -= used;
                if (!parseHead(now))
                    return;
                break;
            }
            case State::ChunkSize:
            case State::ChunkDataEnd:
            case State::Trailers: {
                const char *nl = static_cast<const char *>(std::memchr(p, '\n', n));
                if (!nl) {
                    line.append(p, n);
                    return;
                }
                line.append(p, size_t(nl - p));
                n -= size_t(nl - p) + 1;
                p = nl + 1;
                if (!line.empty() && line.back() == '\r')
                    line.pop_back();
                if (state == State::ChunkSize) {
                    const long long size = std::strtoll(line.c_str(), nullptr, 16);
                    if (size == 0) {
                        state = State::Trailers;
                    } else {
                        remaining = size;
                        state = State::ChunkData;
                    }
                } else if (state == State::ChunkDataEnd) {
                    state = State::ChunkSize;
                } else if (line.empty()) {
                    state = State::Done;
                    finished = now;
                }
                line.clear();
                break;
            }
            case State::ChunkData:
            case State::Body: {
                const size_t take = size_t(std::min<long long>(remaining, static_cast<long long>(n)));
                onBody(p, take, now);
                p += take;
                n -= take;
                remaining -= static_cast<long long>(take);
                if (remaining == 0) {
                    if (state == State::ChunkData) {
                        state = State::ChunkDataEnd;
                    } else {
                        state = State::Done;
                        finished = now;
                    }
                }
                break;
            }
            case State::UntilClose:
                onBody(p, n, now);
                return;
            default:
                return;
            }
        }
    }

    void onClose(Clock::time_point now)
    {
        if (state == State::UntilClose) {
            state = State::Done;
            finished = now;
            return;
        }
        fail(state == State::Head ? "closed before a response" : "closed in the middle of the body");
    }
};

int openSocket(const Target &t, bool blocking)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | (blocking ? 0 : SOCK_NONBLOCK) | SOCK_CLOEXEC, 0);
    if (fd < 0)
        die(std::string("socket: ") + std::strerror(errno));
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(uint16_t(t.port));
    if (::inet_pton(AF_INET, t.host.c_str(), &addr.sin_addr) != 1)
        die("not an IPv4 address: " + t.host);
    const int rc = ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
    if (rc < 0 && !(errno == EINPROGRESS && !blocking)) {
        const std::string why = std::strerror(errno);
        ::close(fd);
        die("connect to " + t.host + ":" + std::to_string(t.port) + ": " + why);
    }
    if (blocking) {
        const int flags = ::fcntl(fd, F_GETFL);
        ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    }
    return fd;
}

bool stillOpen(int fd)
{
    char c;
    const ssize_t n = ::recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

struct Options
{
    std::string mode;
    std::vector<Target> targets;
    int reps = 10;
    int warmup = 2;
    int maxTokens = 16;
    int historyBytes = 0;
    std::string phase;
    int streams = 200;
    std::string path;
    double timeoutS = 60;
    int gapUs = 0;
    Target trigger;              // --mode fanout: the fake whose model load makes the event
    std::string triggerPrefix = "m";
};

// Earlier turns of a coding session: file contents with quotes, escapes and newlines, as agents
// resend on every request, about `bytes` of them.
std::string conversation(int bytes)
{
    // JSON string content: escaped quotes and newlines, as in a real file.
    static const std::string code = "#include \\\"relay.h\\\"\\n\\nint Relay::handle(const Request &r)\\n{\\n"
                                    "    // route by \\\"model\\\"\\n    return m_routes.value(r.model, -1);\\n}\\n";
    std::string out;
    for (int turn = 0; int(out.size()) < bytes; ++turn) {
        out += turn % 2 == 0 ? R"({"role":"user","content":"Here is the file:\n)"
                             : R"({"role":"assistant","content":"I changed it:\n)";
        for (int i = 0; i < 12; ++i)
            out += code;
        out += R"("},)";
    }
    return out;
}

std::string chatRequest(const Options &o, const Target &t)
{
    static const std::string history = conversation(o.historyBytes);
    std::string body = R"({"model":")" + t.model + R"(","stream":true,"max_tokens":)" + std::to_string(o.maxTokens)
        + R"(,"messages":[)" + history + R"({"role":"user","content":"Say hello in one short sentence."}]})";
    return "POST " + o.path + " HTTP/1.1\r\nHost: " + t.host + ":" + std::to_string(t.port)
        + "\r\nUser-Agent: switchyard-bench\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n"
          "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string getRequest(const Options &o, const Target &t)
{
    return "GET " + o.path + " HTTP/1.1\r\nHost: " + t.host + ":" + std::to_string(t.port)
        + "\r\nUser-Agent: switchyard-bench\r\nAccept: application/json\r\n\r\n";
}

// Drives a set of exchanges to completion over one epoll set.
class Loop
{
public:
    Loop()
        : m_ep(::epoll_create1(EPOLL_CLOEXEC)), m_buf(256 * 1024)
    {
        if (m_ep < 0)
            die("epoll_create1 failed");
    }
    ~Loop() { ::close(m_ep); }

    // Optional hook, called after every wakeup (used to sample RSS while streams are open).
    std::function<void()> onWake;

    void add(Exchange *x)
    {
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLRDHUP | (x->connecting || x->written < x->request.size() ? uint32_t(EPOLLOUT) : 0u);
        ev.data.ptr = x;
        if (::epoll_ctl(m_ep, EPOLL_CTL_ADD, x->fd, &ev) < 0)
            die(std::string("epoll_ctl: ") + std::strerror(errno));
        if (!x->connecting)
            write(x);
    }

    void remove(Exchange *x) { ::epoll_ctl(m_ep, EPOLL_CTL_DEL, x->fd, nullptr); }

    // Runs until every exchange is done (or `until` says so) or the deadline passes (the
    // exchanges not done then fail).
    void run(const std::vector<Exchange *> &all, Clock::time_point deadline, std::function<bool()> until = {})
    {
        std::vector<epoll_event> events(512);
        auto pending = [&] {
            if (until)
                return !until();
            return std::any_of(all.begin(), all.end(), [](const Exchange *x) { return !x->done(); });
        };
        while (pending()) {
            const auto now = Clock::now();
            if (now >= deadline) {
                for (Exchange *x : all)
                    x->fail("timed out");
                break;
            }
            const int waitMs = int(std::min<double>(msSince(now, deadline) + 1, 1000));
            const int n = ::epoll_wait(m_ep, events.data(), int(events.size()), waitMs);
            if (n < 0 && errno != EINTR)
                die("epoll_wait failed");
            for (int i = 0; i < n; ++i) {
                auto *x = static_cast<Exchange *>(events[i].data.ptr);
                if (x->done())
                    continue;
                if (x->connecting && (events[i].events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
                    int err = 0;
                    socklen_t len = sizeof err;
                    ::getsockopt(x->fd, SOL_SOCKET, SO_ERROR, &err, &len);
                    if (err) {
                        x->fail(std::string("connect: ") + std::strerror(err));
                        continue;
                    }
                    x->connecting = false;
                    write(x);
                }
                if (!x->connecting && (events[i].events & EPOLLOUT) && x->written < x->request.size())
                    write(x);
                if (events[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
                    read(x);
            }
            if (onWake)
                onWake();
        }
    }

private:
    void write(Exchange *x)
    {
        if (x->written == 0)
            x->sent = Clock::now();
        while (x->written < x->request.size()) {
            const ssize_t n = ::send(x->fd, x->request.data() + x->written, x->request.size() - x->written, MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK)
                    break;
                x->fail(std::string("send: ") + std::strerror(errno));
                return;
            }
            x->written += size_t(n);
        }
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLRDHUP | (x->written < x->request.size() ? uint32_t(EPOLLOUT) : 0u);
        ev.data.ptr = x;
        ::epoll_ctl(m_ep, EPOLL_CTL_MOD, x->fd, &ev);
    }

    void read(Exchange *x)
    {
        for (;;) {
            const ssize_t n = ::recv(x->fd, m_buf.data(), m_buf.size(), 0);
            if (n > 0) {
                x->feed(m_buf.data(), size_t(n), Clock::now());
                if (x->done())
                    return;
                continue;
            }
            if (n == 0) {
                x->onClose(Clock::now());
                return;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return;
            if (errno == EINTR)
                continue;
            x->fail(std::string("recv: ") + std::strerror(errno));
            return;
        }
    }

    int m_ep;
    std::vector<char> m_buf;
};

// A kept-alive connection per target for sequential requests.
struct Keeper
{
    int fd = -1;
    long reused = 0;
    long opened = 0;

    int take(const Target &t)
    {
        if (fd >= 0 && stillOpen(fd)) {
            ++reused;
            return fd;
        }
        if (fd >= 0)
            ::close(fd);
        fd = openSocket(t, true);
        ++opened;
        return fd;
    }
    void giveBack(bool keep)
    {
        if (!keep && fd >= 0) {
            ::close(fd);
            fd = -1;
        }
    }
    ~Keeper()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

std::string jsonEscape(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) < 0x20)
            continue;
        out += c;
    }
    return out;
}

// One request on the target's kept-alive connection.
std::unique_ptr<Exchange> sequential(Loop &loop, Keeper &keeper, const Target &t, const std::string &request,
                                     double timeoutS)
{
    auto x = std::make_unique<Exchange>();
    x->fd = keeper.take(t);
    x->request = request;
    x->started = Clock::now();
    loop.add(x.get());
    loop.run({x.get()}, Clock::now() + std::chrono::microseconds(static_cast<long long>(timeoutS * 1e6)));
    loop.remove(x.get());
    keeper.giveBack(x->ok() && x->serverKeepsAlive);
    return x;
}

void printExchange(const char *phase, const Target &t, int rep, const Exchange &x, const std::string &extra = {})
{
    auto ms = [&](Clock::time_point at) { return at == Clock::time_point() ? -1.0 : msSince(x.sent, at); };
    std::printf("{\"phase\":\"%s\",\"target\":\"%s\",\"rep\":%d,\"status\":%d,\"ok\":%s,\"head_ms\":%.4f,"
                "\"first_event_ms\":%.4f,\"last_event_ms\":%.4f,\"total_ms\":%.4f,\"events\":%ld,\"done_marker\":%s,"
                "\"body_bytes\":%lld,\"error\":\"%s\"%s}\n",
                phase, t.name.c_str(), rep, x.status, x.ok() ? "true" : "false", ms(x.headAt), ms(x.firstEvent),
                ms(x.lastEvent), ms(x.finished), x.events, x.sawDone ? "true" : "false", x.bodyBytes,
                jsonEscape(x.error).c_str(), extra.c_str());
    std::fflush(stdout);
}

void runSequential(const Options &o, const char *phase, bool chat)
{
    Loop loop;
    std::vector<Keeper> keepers(o.targets.size());
    const size_t n = o.targets.size();
    for (int rep = -o.warmup; rep < o.reps; ++rep) {
        // Each repetition starts one target later: whichever target runs right after another
        // (and after that one's leftover work, on a CPU it kept awake) takes every place
        // equally often, so the order cannot favour one of them.
        const size_t first = size_t(rep + o.warmup) % n;
        for (size_t k = 0; k < n; ++k) {
            const size_t i = (first + k) % n;
            const Target &t = o.targets[i];
            const double cpu0 = cpuSeconds(t.pids);
            const double self0 = selfCpuSeconds();
            auto x = sequential(loop, keepers[i], t, chat ? chatRequest(o, t) : getRequest(o, t), o.timeoutS);
            if (o.gapUs > 0)   // before the CPU reading: the target's work after answering is its own
                std::this_thread::sleep_for(std::chrono::microseconds(o.gapUs));
            const double cpu = cpuSeconds(t.pids) - cpu0;
            const double self = selfCpuSeconds() - self0;
            if (rep < 0)
                continue;
            char extra[256];
            std::snprintf(extra, sizeof extra, ",\"proxy_cpu_s\":%.3f,\"client_cpu_s\":%.4f,\"reused_connection\":%s",
                          t.pids.empty() ? -1.0 : cpu, self, keepers[i].reused > 0 && x->ok() ? "true" : "false");
            printExchange(phase, t, rep, *x, extra);
        }
    }
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return -1;
    std::sort(v.begin(), v.end());
    const double idx = p * double(v.size() - 1);
    const size_t lo = size_t(idx);
    const size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (idx - double(lo));
}

void runConcurrent(const Options &o)
{
    for (int rep = -o.warmup; rep < o.reps; ++rep) {
        for (const Target &t : o.targets) {
            Loop loop;
            std::vector<std::unique_ptr<Exchange>> xs;
            std::vector<Exchange *> all;
            std::vector<std::string> requests;   // one per endpoint of the target
            for (size_t e = 0; e <= t.more.size(); ++e)
                requests.push_back(chatRequest(o, endpoint(t, e)));
            // RSS summed over the target's processes (nginx: master and workers).
            auto rss = [&t] {
                long sum = 0;
                for (int pid : t.pids)
                    sum += std::max(0L, rssKb(pid));
                return sum;
            };
            long rssAllFirst = -1, rssMax = -1;
            Clock::time_point lastSample{};
            bool allFirst = false;
            loop.onWake = [&] {
                if (t.pids.empty())
                    return;
                if (!allFirst && std::all_of(all.begin(), all.end(), [](const Exchange *x) { return x->events > 0 || x->done(); })) {
                    allFirst = true;
                    rssAllFirst = rss();
                }
                const auto now = Clock::now();
                if (now - lastSample > std::chrono::milliseconds(20)) {
                    lastSample = now;
                    rssMax = std::max(rssMax, rss());
                }
            };
            const double cpu0 = runSeconds(t.pids);
            const double self0 = selfCpuSeconds();
            const long long overflows0 = tcpExt("ListenOverflows");
            const long long synRetrans0 = tcpExt("TCPSynRetrans");
            const auto t0 = Clock::now();
            for (int i = 0; i < o.streams; ++i) {
                auto x = std::make_unique<Exchange>();
                x->fd = openSocket(endpoint(t, size_t(i)), false);
                x->connecting = true;
                x->request = requests[size_t(i) % requests.size()];
                x->started = Clock::now();
                all.push_back(x.get());
                loop.add(x.get());
                xs.push_back(std::move(x));
            }
            loop.run(all, t0 + std::chrono::microseconds(static_cast<long long>(o.timeoutS * 1e6)));
            const auto t1 = Clock::now();
            const double cpu = runSeconds(t.pids) - cpu0;
            const double self = selfCpuSeconds() - self0;
            const long long overflows = tcpExt("ListenOverflows") - overflows0;
            const long long synRetrans = tcpExt("TCPSynRetrans") - synRetrans0;
            std::vector<double> firsts;
            int ok = 0, withEvent = 0;
            long events = 0;
            double lastDone = 0;
            std::string firstError;
            for (const auto &x : xs) {
                if (x->ok() && x->sawDone)
                    ++ok;
                else if (firstError.empty())
                    firstError = x->error.empty() ? "status " + std::to_string(x->status) : x->error;
                if (x->events > 0) {
                    ++withEvent;
                    firsts.push_back(msSince(t0, x->firstEvent));
                }
                events += x->events;
                if (x->finished != Clock::time_point())
                    lastDone = std::max(lastDone, msSince(t0, x->finished));
                ::close(x->fd);
            }
            if (rep < 0)
                continue;
            std::printf("{\"phase\":\"%s\",\"target\":\"%s\",\"rep\":%d,\"endpoints\":%zu,\"streams\":%d,\"ok\":%d,\"with_event\":%d,"
                        "\"events\":%ld,\"first_event_median_ms\":%.3f,\"first_event_p90_ms\":%.3f,\"first_event_p99_ms\":%.3f,"
                        "\"all_first_event_ms\":%.3f,\"total_ms\":%.3f,\"wall_ms\":%.3f,\"rss_kb_all_open\":%ld,"
                        "\"rss_kb_max\":%ld,\"proxy_cpu_s\":%.6f,\"client_cpu_s\":%.4f,\"listen_overflows\":%lld,"
                        "\"syn_retransmits\":%lld,\"error\":\"%s\"}\n",
                        o.phase.empty() ? "concurrent" : o.phase.c_str(), t.name.c_str(), rep, t.more.size() + 1, o.streams, ok, withEvent, events, percentile(firsts, 0.5),
                        percentile(firsts, 0.9), percentile(firsts, 0.99), firsts.empty() ? -1.0 : *std::max_element(firsts.begin(), firsts.end()),
                        lastDone, msSince(t0, t1), rssAllFirst, rssMax, t.pids.empty() ? -1.0 : cpu, self, overflows, synRetrans,
                        jsonEscape(firstError).c_str());
            std::fflush(stdout);
            // Let the proxies close their upstream sockets before the next target runs.
            ::usleep(200 * 1000);
        }
    }
}

// The /models/sse fan-out: `streams` watchers subscribe to the target's feed; once every one has
// its response head (so the relay holds all of them), one model load on the trigger fake makes an
// event, and the time from that request to each watcher's first `data:` line is measured.
void runFanout(const Options &o)
{
    if (o.trigger.port == 0)
        die("--mode fanout needs --trigger HOST:PORT");
    int loadNo = 2;   // m01 is loaded at start; every run loads another model
    for (int rep = -o.warmup; rep < o.reps; ++rep) {
        for (const Target &t : o.targets) {
            Loop loop;
            auto rss = [&t] {
                long sum = 0;
                for (int pid : t.pids)
                    sum += std::max(0L, rssKb(pid));
                return sum;
            };
            const long rssBefore = t.pids.empty() ? -1 : rss();
            std::vector<std::unique_ptr<Exchange>> watchers;
            std::vector<Exchange *> all;
            const std::string subscribe = "GET /models/sse HTTP/1.1\r\nHost: " + t.host + ":" + std::to_string(t.port)
                + "\r\nUser-Agent: switchyard-bench\r\nAccept: text/event-stream\r\n\r\n";
            for (int i = 0; i < o.streams; ++i) {
                auto x = std::make_unique<Exchange>();
                x->fd = openSocket(t, false);
                x->connecting = true;
                x->request = subscribe;
                x->started = Clock::now();
                all.push_back(x.get());
                loop.add(x.get());
                watchers.push_back(std::move(x));
            }
            auto allHeads = [&] {
                return std::all_of(all.begin(), all.end(), [](const Exchange *x) { return x->headAt != Clock::time_point() || x->done(); });
            };
            loop.run(all, Clock::now() + std::chrono::seconds(30), allHeads);
            // Let the relay settle (record bookkeeping of the subscriptions) before the clock starts.
            ::usleep(100 * 1000);
            const long rssOpen = t.pids.empty() ? -1 : rss();
            char model[32];
            std::snprintf(model, sizeof model, "%s%02d", o.triggerPrefix.c_str(), loadNo++);
            const std::string body = std::string(R"({"model":")") + model + "\"}";
            auto load = std::make_unique<Exchange>();
            load->fd = openSocket(o.trigger, false);
            load->connecting = true;
            load->request = "POST /models/load HTTP/1.1\r\nHost: " + o.trigger.host + ":" + std::to_string(o.trigger.port)
                + "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
            const double cpu0 = runSeconds(t.pids);
            const auto t0 = Clock::now();
            load->started = t0;
            all.push_back(load.get());
            loop.add(load.get());
            auto everyoneHeard = [&] {
                return std::all_of(watchers.begin(), watchers.end(), [](const auto &x) { return x->events > 0 || x->done(); });
            };
            loop.run(all, t0 + std::chrono::microseconds(static_cast<long long>(o.timeoutS * 1e6)), everyoneHeard);
            const double cpu = runSeconds(t.pids) - cpu0;
            std::vector<double> firsts;
            int heard = 0;
            std::string firstError;
            for (const auto &x : watchers) {
                if (x->events > 0) {
                    ++heard;
                    firsts.push_back(msSince(t0, x->firstEvent));
                } else if (firstError.empty()) {
                    firstError = x->error.empty() ? "no event" : x->error;
                }
                ::close(x->fd);
            }
            ::close(load->fd);
            if (rep < 0)
                continue;
            std::printf("{\"phase\":\"%s\",\"target\":\"%s\",\"rep\":%d,\"watchers\":%d,\"heard\":%d,\"model\":\"%s\","
                        "\"first_event_median_ms\":%.3f,\"first_event_p90_ms\":%.3f,\"first_event_p99_ms\":%.3f,"
                        "\"all_first_event_ms\":%.3f,\"rss_kb_before\":%ld,\"rss_kb_watching\":%ld,\"proxy_cpu_s\":%.6f,\"error\":\"%s\"}\n",
                        o.phase.empty() ? "fanout" : o.phase.c_str(), t.name.c_str(), rep, o.streams, heard, model,
                        percentile(firsts, 0.5), percentile(firsts, 0.9), percentile(firsts, 0.99),
                        firsts.empty() ? -1.0 : *std::max_element(firsts.begin(), firsts.end()), rssBefore, rssOpen,
                        t.pids.empty() ? -1.0 : cpu, jsonEscape(firstError).c_str());
            std::fflush(stdout);
            ::usleep(200 * 1000);   // the watchers' connections close before the next target runs
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                die(a + " needs a value");
            return argv[++i];
        };
        if (a == "--mode")
            o.mode = value();
        else if (a == "--target") {
            Target t = parseTarget(value());
            const auto same = std::find_if(o.targets.begin(), o.targets.end(), [&t](const Target &x) { return x.name == t.name; });
            if (same != o.targets.end())
                same->more.push_back(t);
            else
                o.targets.push_back(t);
        } else if (a == "--trigger")
            o.trigger = parseTarget("trigger=" + value());
        else if (a == "--trigger-prefix")
            o.triggerPrefix = value();
        else if (a == "--reps")
            o.reps = std::atoi(value().c_str());
        else if (a == "--warmup")
            o.warmup = std::atoi(value().c_str());
        else if (a == "--max-tokens")
            o.maxTokens = std::atoi(value().c_str());
        else if (a == "--history-bytes")
            o.historyBytes = std::atoi(value().c_str());
        else if (a == "--phase")
            o.phase = value();
        else if (a == "--streams")
            o.streams = std::atoi(value().c_str());
        else if (a == "--path")
            o.path = value();
        else if (a == "--timeout-s")
            o.timeoutS = std::atof(value().c_str());
        else if (a == "--gap-us")
            o.gapUs = std::atoi(value().c_str());
        else if (a == "--help" || a == "-h") {
            std::puts("switchyard-bench-client --mode ttfb|throughput|concurrent|models|fanout --target NAME=HOST:PORT,MODEL[,PIDS] ...\n"
                      "  [--reps N] [--warmup N] [--max-tokens N] [--history-bytes N] [--phase NAME] [--streams N]\n"
                      "  [--path P] [--timeout-s S] [--gap-us N] [--trigger HOST:PORT] [--trigger-prefix P]");
            return 0;
        } else
            die("unknown argument " + a);
    }
    if (o.targets.empty())
        die("no --target");
    if (o.path.empty())
        o.path = o.mode == "models" ? "/models" : "/v1/chat/completions";
    if (o.mode == "ttfb" || o.mode == "throughput")
        runSequential(o, o.phase.empty() ? o.mode.c_str() : o.phase.c_str(), true);
    else if (o.mode == "models")
        runSequential(o, "models", false);
    else if (o.mode == "concurrent")
        runConcurrent(o);
    else if (o.mode == "fanout")
        runFanout(o);
    else
        die("unknown --mode " + o.mode);
    return 0;
}
