#pragma once

#include <QLabel>

// Status text that never widens its window (ARCHITECTURE.md, Views: text that does not fit): one line of
// plain text, painted elided to the width the layout gives it, the whole text in its tooltip when it does
// not fit. text() stays the whole text. Its minimum width is a few characters, so a 2,000-character
// database error leaves the window as wide as it was.
class ElidedLabel final : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr, Qt::TextElideMode mode = Qt::ElideRight);

    bool isElided() const;
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString shownText() const;

    Qt::TextElideMode m_mode;
};
