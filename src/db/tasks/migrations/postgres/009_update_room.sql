-- Room on every page for a task's next versions. A task is written three times (inserted pending,
-- claimed, settled with its result) and every one of those updates changes indexed columns, so none can
-- be HOT; but one that finds room on its row's own page writes much less WAL: no extra lock record to
-- move the row, the new version logged as a diff of the old one, no new page to initialise. Pages are
-- pruned of dead versions as rows are read, so the room is reused. Only pages written from now on get
-- the room; existing rows are not rewritten.
ALTER TABLE tasks SET (fillfactor = 70);
