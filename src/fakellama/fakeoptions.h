#pragma once

#include <QHash>
#include <QHostAddress>
#include <QString>
#include <QStringList>

#include <chrono>

namespace switchyard::fake {

// How a fake llama.cpp router starts. Most of it can be changed later through
// FakeLlamaServer's knobs or POST /__fake/config.
struct FakeOptions
{
    QHostAddress host{QHostAddress::LocalHost};
    quint16 port = 0;                              // 0 = any free port
    QStringList models;                            // the ids the router serves
    int contextSize = 4096;                        // n_ctx of every model...
    QHash<QString, int> modelContext;              // ...unless given here (listed as a preset)
    // The GGUF a model is served from (default /srv/models/<id>.gguf): a test changes it to serve
    // other weights under the same name. A slot file restores into it all the same, as the real
    // server restores any file whose layer shapes fit.
    QHash<QString, QString> modelFiles;
    std::chrono::milliseconds loadDelay{500};
    std::chrono::milliseconds unloadDelay{50};
    double tokensPerSecond = 1000.0;               // 0 = as fast as the event loop goes
    int maxModels = 4;                             // --models-max; least recently used goes first
    bool autoload = true;
    QStringList failLoad;                          // models whose load always fails
    QStringList loaded;                            // models already loaded at start
    bool singleModel = false;                      // a plain llama-server with one model
    std::chrono::milliseconds prefillDelay{0};     // silence between the stream headers and the first token
    std::chrono::milliseconds pingInterval{30000}; // SSE `:` pings while prefilling
    bool rejectLateSystem = false;                 // chat template refuses a late system message
    int defaultMaxTokens = 16;                     // answer length when the request sets none
    int maxReplyTokens = 0;                        // the model "stops" by itself after this many (0 = never)
    // The slot API (llama-server's --slot-save-path, -np): where saves go (empty = slot actions
    // answer 501), slots per model, a saved slot's size per cached token, and how long a save
    // and a restore take.
    QString slotSavePath;
    int slotCount = 4;
    int slotBytesPerToken = 1024;
    std::chrono::milliseconds slotSaveDelay{0};
    std::chrono::milliseconds slotRestoreDelay{0};
};

// Parses the switchyard-fakellama command line (arguments[0] is the program).
// On a problem returns default options and sets *error.
FakeOptions parseFakeOptions(const QStringList &arguments, QString *error);
QString fakeOptionsUsage();

} // namespace switchyard::fake
