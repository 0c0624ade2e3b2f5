/** The trader's shapes, checks and list catalog come from the contracts (packages/contracts/src/traders.ts). */
export {
  BIC_PATTERN as BIC_REGEX,
  isValidIban,
  isValidVatNumber,
  type MergeTradersRequest,
  mergeableTraderFields,
  normalizeIban,
  normalizeVatNumber,
  type SaveTraderRequest,
  type Trader,
  type TraderDuplicate,
  type TraderListItem,
  type TraderLookup,
  type TraderStatus,
  traderStatuses,
  tradersCatalog,
} from '@protocol/contracts';
