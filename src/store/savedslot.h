#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

#include <chrono>

namespace switchyard {

// One llama-server slot saved to a file in its engine's --slot-save-path (a prompt cache kept
// across a switch, docs/HOSTS.md): the index entry the prompt-cache keeper keeps in the store,
// so a relay restart does not forget what the files on the box hold.
struct SavedSlot
{
    QString host;
    QString engine;
    QString model;              // the model's name on its engine
    int slot = 0;
    QString filename;           // under the cache folder
    qint64 tokens = 0;
    qint64 bytes = 0;
    QDateTime savedAt;
    std::chrono::milliseconds took{0};
    // What the engine said the model was when it was saved (file path, size, shape): a file of
    // one model must never be restored into another that has taken its name.
    QString modelIdentity;
    // The engine has started since the save: the next request of its model restores it first.
    bool pending = false;

    QString key() const { return engine + u'\n' + model + u'\n' + QString::number(slot); }
};

// A change to the index, written with the history batch it was queued in.
struct SavedSlotChange
{
    SavedSlot slot;
    bool forget = false;        // true: remove the entry (host, engine, model, slot)
};

} // namespace switchyard
