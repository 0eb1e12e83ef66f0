#pragma once

#include <QLabel>

// Text that wraps to the width it is given, also inside a token longer than a line (a host name, a path, a
// stack frame), so it never widens its window (ARCHITECTURE.md, Views: text that does not fit). Plain text,
// selectable while every word fits a line; painted wrapped anywhere when one does not.
class WrappingLabel final : public QLabel {
    Q_OBJECT
public:
    explicit WrappingLabel(QWidget *parent = nullptr);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    bool fitsWordByWord(int width) const;
};
