#pragma once

#include "fakemodelstate.h"

#include <QByteArray>
#include <QList>

// The JSON documents about models, key for key as llama.cpp writes them.
namespace switchyard::fake::fakemodelsjson {

extern const char BuildInfo[]; // "b1-de3ff81", the build the transcripts came from

QByteArray routerList(const QList<const FakeModelState *> &models);    // GET /models in router mode
QByteArray singleModelList(const FakeModelState &model);              // GET /v1/models of a plain server
QByteArray routerProps(int maxInstances, bool autoload);              // GET /props without a model
QByteArray childProps(const FakeModelState &model);                   // GET /props?model=X

// /models/sse payloads ({"model":…,"event":…,"data":…}).
QByteArray loadingStartedEvent(const QString &id);                    // model_status loading
QByteArray loadingProgressEvent(const QString &id, double value);     // status_change loading
QByteArray loadedEvent(const FakeModelState &model);                  // status_change loaded + info
QByteArray unloadedEvent(const QString &id, int exitCode);            // status_change unloaded
QByteArray sleepingEvent(const QString &id);                          // status_change sleeping

} // namespace switchyard::fake::fakemodelsjson
