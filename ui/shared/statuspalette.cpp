#include "shared/statuspalette.h"

#include <QHash>
#include <QPainter>
#include <QPixmap>

#include <array>

namespace switchyard {

using namespace Qt::StringLiterals;

QColor StatusPalette::good() { return QColor(0x23, 0x86, 0x5a); }
QColor StatusPalette::busy() { return QColor(0xd0, 0x8a, 0x14); }
QColor StatusPalette::idle() { return QColor(0x8a, 0x93, 0x9c); }
QColor StatusPalette::asleep() { return QColor(0x4f, 0x7f, 0xc9); }
QColor StatusPalette::bad() { return QColor(0xcc, 0x3d, 0x3d); }
QColor StatusPalette::switching() { return QColor(0xe0, 0x9b, 0x1f); }
QColor StatusPalette::lease() { return QColor(0x86, 0x5c, 0xc7); }

QColor StatusPalette::forModelStatus(QStringView status)
{
    if (status == u"loaded")
        return good();
    if (status == u"loading" || status == u"unloading")
        return busy();
    if (status == u"sleeping")
        return asleep();
    if (status == u"failed" || status == u"error")
        return bad();
    return idle();
}

QColor StatusPalette::forActivity(HostActivity activity)
{
    switch (activity) {
    case HostActivity::Up: return good();
    case HostActivity::Down: return bad();
    case HostActivity::Switching:
    case HostActivity::Draining:
    case HostActivity::Waking: return switching();
    case HostActivity::Leased: return lease();
    case HostActivity::Unknown:
    case HostActivity::Idle:
    case HostActivity::Asleep: return idle();
    }
    return idle();
}

QColor StatusPalette::forEngine(QStringView engine)
{
    // Muted, distinct hues that read on light and dark backgrounds alike, none of them the
    // status colours' amber or red, nor the lease's violet (a leased lane must not look like
    // an engine running).
    static constexpr std::array<QRgb, 8> Hues = {
        0x2a9d8f, 0x4a78b5, 0x56707f, 0x5f9e3a, 0x3a8fb7, 0xb5567a, 0x8c6d46, 0x2f8f6a,
    };
    // FNV-1a over the UTF-16 units: stable across runs and Qt versions, unlike qHash's seed.
    quint32 h = 2166136261u;
    for (QChar c : engine) {
        h ^= c.unicode();
        h *= 16777619u;
    }
    return QColor::fromRgb(Hues[h % Hues.size()]);
}

namespace {

QIcon shapeIcon(const QColor &color, bool round)
{
    // A handful of colours: cached; icons are implicitly shared.
    static QHash<QPair<QRgb, bool>, QIcon> cache;
    const auto key = qMakePair(color.rgba(), round);
    auto it = cache.constFind(key);
    if (it != cache.constEnd())
        return *it;
    QIcon icon;
    for (int size : {12, 16, 24}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        const qreal margin = size / 5.0;
        const QRectF r(margin, margin, size - 2 * margin, size - 2 * margin);
        if (round)
            p.drawEllipse(r);
        else
            p.drawRoundedRect(r, size / 8.0, size / 8.0);
        p.end();
        icon.addPixmap(pixmap);
    }
    cache.insert(key, icon);
    return icon;
}

} // namespace

QIcon StatusPalette::dot(const QColor &color)
{
    return shapeIcon(color, true);
}

QIcon StatusPalette::swatch(const QColor &color)
{
    return shapeIcon(color, false);
}

} // namespace switchyard
