import { registerCatalogs } from '../../../i18n/index.ts';
import el from './el.json';
import en from './en.json';

registerCatalogs({ el, en });
