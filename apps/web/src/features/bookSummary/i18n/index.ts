import el from '@protocol/contracts/i18n/protocol/el.json';
import en from '@protocol/contracts/i18n/protocol/en.json';
import { registerCatalogs } from '../../../i18n/index.ts';
import screenEl from './el.json';
import screenEn from './en.json';

// The protocol's texts shared with the server (the book's columns, errors), then the screen's own.
registerCatalogs({ el, en });
registerCatalogs({ el: screenEl, en: screenEn });
