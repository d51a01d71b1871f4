#include "dialogs/hostseditorform.h"

#include "config/hostseditormodel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QVBoxLayout>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

const QString Name = u"name"_s;

bool isUnder(const QString &path, const QString &field)
{
    return path == field || path.startsWith(field + u'.') || path.startsWith(field + u'[');
}

} // namespace

HostsEditorForm::HostsEditorForm(QWidget *parent)
    : QWidget(parent)
    , m_form(new QGridLayout)
    , m_hint(new QLabel(this))
{
    auto *driver = new QComboBox(this);
    driver->setEditable(true);   // a driver the file names wrongly shows as it is, with its error
    driver->addItems({u"static"_s, u"local"_s, u"agent"_s, u"command"_s});
    driver->setToolTip(tr("static: the relay only forwards to a running server. local: it starts and stops "
                          "llama-server on this machine. agent: through `switchyard agent` on the GPU box. "
                          "command: with your own start and stop commands."));

    addRow(Name, tr("&Name:"), false);
    addRow(u"driver"_s, tr("&Driver:"), false, driver);
    addRow(u"api_key"_s, tr("&API key:"), false);
    addRow(u"agent"_s, tr("A&gent URL:"), false);
    addRow(u"token"_s, tr("Agent &token:"), false);
    // Wake and idle: written through to the JSON as typed; the config readers judge them.
    addRow(u"idle_stop_after_s"_s, tr("Stop when &idle after (s):"), false);
    addRow(u"sleep_command"_s, tr("S&leep command:"), false);
    addRow(u"wake.mac"_s, tr("&Wake-on-LAN MAC:"), false);
    addRow(u"wake.broadcast"_s, tr("Wake &broadcast:"), false);
    addRow(u"wake.port"_s, tr("Wake &port:"), false);
    addRow(u"wake.timeout_s"_s, tr("Wake time&out (s):"), false);
    addRow(u"url"_s, tr("&URL:"), true);
    addRow(u"models"_s, tr("&Models:"), true);
    addRow(u"argv"_s, tr("&Command line:"), true);
    addRow(u"start"_s, tr("&Start command:"), true);
    addRow(u"stop"_s, tr("St&op command:"), true);

    m_rows[u"api_key"_s].edit->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_rows[u"api_key"_s].edit->setPlaceholderText(tr("none (the engines' --api-key, if they have one)"));
    m_rows[u"token"_s].edit->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_rows[u"agent"_s].edit->setPlaceholderText(u"http://gpu-box.lan:18767"_s);
    m_rows[u"url"_s].edit->setPlaceholderText(u"http://gpu-box.lan:8080"_s);
    m_rows[u"models"_s].edit->setPlaceholderText(tr("empty: learnt from the engine (a router lists its own)"));
    m_rows[u"models"_s].edit->setToolTip(tr("Model keys, separated by commas: for a single-model server or one "
                                            "that does not list its models"));
    m_rows[u"argv"_s].edit->setPlaceholderText(u"llama-server --port 8080 --models-dir ~/models"_s);
    m_rows[u"argv"_s].edit->setToolTip(tr("The program and its arguments; quote an argument that has spaces"));
    m_rows[u"idle_stop_after_s"_s].edit->setPlaceholderText(tr("empty: never"));
    m_rows[u"wake.mac"_s].edit->setPlaceholderText(u"aa:bb:cc:dd:ee:ff"_s);
    m_rows[u"wake.mac"_s].edit->setToolTip(tr("Empty: the box is not woken; the relay sends a magic packet to this "
                                               "MAC when a request finds the box asleep"));

    m_hint->setWordWrap(true);
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_form);
    layout->addWidget(m_hint);
    layout->addStretch(1);
    showNothing();
}

void HostsEditorForm::addRow(const QString &key, const QString &label, bool engine, QComboBox *combo)
{
    Row row;
    row.engine = engine;
    row.box = new QWidget(this);
    auto *column = new QVBoxLayout(row.box);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    row.combo = combo;
    row.edit = combo ? combo->lineEdit() : new QLineEdit(row.box);
    column->addWidget(combo ? static_cast<QWidget *>(combo) : row.edit);
    row.error = new QLabel(row.box);
    row.error->setWordWrap(true);
    row.error->setTextFormat(Qt::PlainText);
    row.error->setStyleSheet(u"color: #cc3d3d"_s);
    row.error->hide();
    column->addWidget(row.error);
    connect(row.edit, &QLineEdit::textChanged, this, [this, key] { fieldEdited(key); });
    row.label = new QLabel(label, this);
    row.label->setBuddy(row.edit);
    const int at = m_form->rowCount();
    m_form->addWidget(row.label, at, 0, Qt::AlignLeft | Qt::AlignTop);
    m_form->addWidget(row.box, at, 1);
    m_rows.insert(key, row);
    m_order.append(key);
}

void HostsEditorForm::showHost(HostsEditorModel *model, const QString &host)
{
    m_model = model;
    m_host = host;
    m_engine.clear();
    fill();
}

void HostsEditorForm::showEngine(HostsEditorModel *model, const QString &host, const QString &engine)
{
    m_model = model;
    m_host = host;
    m_engine = engine;
    fill();
}

void HostsEditorForm::showNothing()
{
    m_model = nullptr;
    m_host.clear();
    m_engine.clear();
    fill();
}

void HostsEditorForm::fill()
{
    m_filling = true;
    m_nameClash.clear();
    for (const QString &key : m_order) {
        const Row &row = m_rows[key];
        QString text;
        if (m_model && key == Name)
            text = m_engine.isEmpty() ? m_host : m_engine;
        else if (m_model && key == u"argv")
            text = joinArgv(m_model->list(m_host, m_engine, key));
        else if (m_model && HostsEditorModel::isListKey(key))
            text = m_model->list(m_host, m_engine, key).join(u", "_s);
        else if (m_model && row.engine == !m_engine.isEmpty())
            text = m_model->text(m_host, m_engine, key);
        row.edit->setText(text);
        // A long command line shows its start (the program), not its last argument.
        row.edit->setCursorPosition(0);
        row.error->clear();
        row.error->hide();
    }
    m_filling = false;
    updateRows();
}

void HostsEditorForm::updateRows()
{
    const QString driver = m_model ? m_model->text(m_host, {}, u"driver"_s) : QString();
    const bool engine = !m_engine.isEmpty();
    // What each driver uses (docs/CONFIG.md); anything else only when it holds something.
    const QHash<QString, bool> used = {
        {Name, true}, {u"driver"_s, true}, {u"api_key"_s, true},
        {u"agent"_s, driver == u"agent"}, {u"token"_s, driver == u"agent"},
        {u"idle_stop_after_s"_s, true}, {u"sleep_command"_s, true}, {u"wake.mac"_s, true},
        {u"wake.broadcast"_s, true}, {u"wake.port"_s, true}, {u"wake.timeout_s"_s, true},
        {u"url"_s, true}, {u"models"_s, true},
        {u"argv"_s, driver == u"local" || driver == u"agent"},
        {u"start"_s, driver == u"command"}, {u"stop"_s, driver == u"command"},
    };
    for (const QString &key : m_order) {
        const Row &row = m_rows[key];
        const bool mine = key == Name || row.engine == engine;
        const bool shown = m_model && mine && (used.value(key) || !row.edit->text().isEmpty() || row.error->isVisible());
        row.label->setVisible(shown);
        row.box->setVisible(shown);
    }
    if (!m_model)
        m_hint->setText(tr("Choose a host or an engine on the left, or add one."));
    else if (engine)
        m_hint->setText(tr("The first engine of a host is its default. A router lists its models itself; "
                           "list them here only for a server that does not."));
    else
        m_hint->setText(tr("Fields a host may also have (scheduling, prompt cache, timeouts) stay as they are "
                           "in the file."));
}

QString HostsEditorForm::value(const QString &key) const
{
    return m_rows[key].edit->text();
}

QString HostsEditorForm::pathOf(const QString &key) const
{
    if (key == Name)
        return HostsEditorModel::fieldPath(m_host, m_engine);
    return HostsEditorModel::fieldPath(m_host, m_engine, key);
}

void HostsEditorForm::fieldEdited(const QString &key)
{
    if (m_filling || !m_model)
        return;
    const QString text = value(key);
    if (key == Name) {
        const QString from = m_engine.isEmpty() ? m_host : m_engine;
        const bool ok = m_engine.isEmpty() ? m_model->renameHost(from, text) : m_model->renameEngine(m_host, from, text);
        if (!ok) {
            // The names identify what is edited: a taken one is refused here, before the readers.
            m_nameClash = m_engine.isEmpty() ? tr("another host is called \"%1\"").arg(text)
                                             : tr("another engine of this host is called \"%1\"").arg(text);
            emit edited();
            return;
        }
        m_nameClash.clear();
        (m_engine.isEmpty() ? m_host : m_engine) = text;
        emit renamed(from, text);
    } else if (key == u"argv") {
        m_model->setList(m_host, m_engine, key, QProcess::splitCommand(text));
    } else if (HostsEditorModel::isListKey(key)) {
        QStringList items;
        for (const QString &item : text.split(u','))
            if (!item.trimmed().isEmpty())
                items.append(item.trimmed());
        m_model->setList(m_host, m_engine, key, items);
    } else {
        m_model->setText(m_host, m_engine, key, text.trimmed());
    }
    if (key == u"driver")
        updateRows();
    emit edited();
}

QList<ConfigError> HostsEditorForm::showErrors(const QList<ConfigError> &errors)
{
    QHash<QString, QStringList> at;
    QList<ConfigError> rest;
    for (const ConfigError &e : errors) {
        QString owner;
        if (m_model && e.fieldPath == pathOf(Name)) {
            owner = Name;
        } else if (m_model) {
            for (const QString &key : m_order) {
                if (key != Name && m_rows[key].engine == !m_engine.isEmpty() && isUnder(e.fieldPath, pathOf(key)))
                    owner = key;
            }
            // "wake" itself (not one of its fields): said at its first row.
            if (owner.isEmpty() && m_engine.isEmpty() && e.fieldPath == pathOf(u"wake"_s))
                owner = u"wake.mac"_s;
        }
        if (owner.isEmpty())
            rest.append(e);
        else
            at[owner].append(e.message);
    }
    for (const QString &key : m_order) {
        const Row &row = m_rows[key];
        QStringList messages = at.value(key);
        if (key == Name && !m_nameClash.isEmpty())
            messages.prepend(m_nameClash);
        row.error->setText(messages.join(u'\n'));
        row.error->setVisible(!messages.isEmpty());
    }
    updateRows();
    return rest;
}

QWidget *HostsEditorForm::field(const QString &key) const
{
    const Row row = m_rows.value(key);
    return row.combo ? static_cast<QWidget *>(row.combo) : row.edit;
}

QLabel *HostsEditorForm::errorLabel(const QString &key) const
{
    return m_rows.value(key).error;
}

bool HostsEditorForm::isFieldShown(const QString &key) const
{
    return m_rows.contains(key) && !m_rows.value(key).box->isHidden();
}

QString HostsEditorForm::joinArgv(const QStringList &argv)
{
    QStringList out;
    for (QString arg : argv) {
        if (arg.isEmpty() || arg.contains(u' ') || arg.contains(u'"') || arg.contains(u'\t')) {
            arg.replace(u"\""_s, u"\"\"\""_s);
            arg = u'"' + arg + u'"';
        }
        out.append(arg);
    }
    return out.join(u' ');
}

} // namespace switchyard
