/**
 * The API shapes the store reads and writes, from the shared contract. The store imports them
 * from here only, so a rename in the contract touches one file.
 */
export type {
  Attachment,
  AttachmentState,
  Me,
  Message,
  MessageFile,
  PaymentsStatus,
  PayoutStatus,
  Program,
  ProgramPage,
  ProgramSummary,
  Report,
  ReportStatus,
  ReportSummary,
  Intake as ProgramIntake,
  KeyScope,
  AssetType,
  RewardBand,
  UpdatedFilter,
} from '@shared/api';
