// Worker entry: exposes one EngineApi over Comlink.
import { expose } from 'comlink';
import { EngineApi } from './engine-api';

expose(new EngineApi());
