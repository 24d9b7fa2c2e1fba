/** Response and input shapes of the researcher API, from the generated contract types. */
import type { components } from '../shared/api/schema';

type S = components['schemas'];
export type Report = S['Report'];
export type ReportSummary = S['ReportSummary'];
export type ReportStatus = S['ReportStatus'];
export type Attachment = S['Attachment'];
export type AttachmentState = S['AttachmentState'];
export type Submission = S['Submission'];
export type Decision = S['Decision'];
export type DecisionOutcome = S['DecisionOutcome'];
export type Payout = S['Payout'];
export type PayoutStatus = S['PayoutStatus'];
export type Message = S['Message'];
export type MessageAuthor = S['MessageAuthor'];
export type MessageFile = S['MessageFile'];
export type Program = S['Program'];
export type ProgramSummary = S['ProgramSummary'];
export type Intake = S['Intake'];
export type Rewards = S['Rewards'];
export type Me = S['Me'];
export type PaymentsStatus = S['PaymentsStatus'];
export type PaymentsAccountStatus = S['PaymentsAccountStatus'];
export type ApiKey = S['ApiKey'];
export type KeyScope = S['KeyScope'];
export type ReportInput = S['ReportInput'];
export type MessageInput = S['MessageInput'];
export type KeyInput = S['KeyInput'];
