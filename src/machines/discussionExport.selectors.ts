// What the export buttons read from a panel's export child: disabled while a file is being written.
import type { DiscussionExportSnapshot } from './discussionExport.machine';

export const selectIsExporting = (s: DiscussionExportSnapshot | undefined) => s?.hasTag('exporting') ?? false;
